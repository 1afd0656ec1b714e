// SPDX-License-Identifier: MIT
// The calls of shoal::EngineSimulation (shoal/engine_simulation.hpp): each answers from the
// adapter's engines::AdapterImpl, an AdapterCore (adapter_core.hpp). An adapter's library
// includes this beside its AdapterImpl and instantiates them once:
//   template class shoal::EngineSimulation<shoal::Box2dSimulation, b2Body, b2World>;
#pragma once

#include "shoal/engine_simulation.hpp"

namespace shoal {

template <class A, class B, class W>
EngineSimulation<A, B, W>::EngineSimulation(std::unique_ptr<engines::AdapterImpl<A>> impl) : impl_(std::move(impl)) {}
template <class A, class B, class W>
EngineSimulation<A, B, W>::~EngineSimulation() = default;

template <class A, class B, class W>
BodyIndex EngineSimulation<A, B, W>::add_body(ObjectId id, B& body, std::uint16_t type) {
  return impl_->register_body(id, body, type);
}
template <class A, class B, class W>
B& EngineSimulation<A, B, W>::body(BodyIndex b) const {
  return impl_->body(b);
}
template <class A, class B, class W>
void EngineSimulation<A, B, W>::set_input_handler(InputHandler handler) {
  impl_->input_handler = std::move(handler);
}
template <class A, class B, class W>
void EngineSimulation<A, B, W>::set_spawn_type(std::uint16_t type, BodyMaker make) {
  impl_->spawn.declare(impl_->table, type, std::move(make));
}
template <class A, class B, class W>
void EngineSimulation<A, B, W>::add_spawn_slots(std::size_t count) {
  impl_->add_spawn_slots(count);
}
template <class A, class B, class W>
void EngineSimulation<A, B, W>::set_body_type(BodyIndex b, std::uint16_t type) {
  impl_->table.set_type(b, type);
}
template <class A, class B, class W>
void EngineSimulation<A, B, W>::set_user_bytes_size(std::uint16_t type, std::size_t size) {
  impl_->table.set_user_bytes_size(type, size);
}
template <class A, class B, class W>
bool EngineSimulation<A, B, W>::is_frozen(BodyIndex b) const {
  return impl_->table.frozen(b);
}
template <class A, class B, class W>
void EngineSimulation<A, B, W>::step(Frame, std::span<const BodyInput> inputs) {
  impl_->step(inputs);
}
template <class A, class B, class W>
std::size_t EngineSimulation<A, B, W>::body_count() const {
  return impl_->table.size();
}
template <class A, class B, class W>
ObjectId EngineSimulation<A, B, W>::body_id(BodyIndex b) const {
  return impl_->table.id(b);
}
template <class A, class B, class W>
float EngineSimulation<A, B, W>::bounding_radius(BodyIndex b) const {
  return impl_->table.radius(b);
}
template <class A, class B, class W>
std::uint16_t EngineSimulation<A, B, W>::body_type(BodyIndex b) const {
  return impl_->table.type(b);
}
template <class A, class B, class W>
ObjectState EngineSimulation<A, B, W>::read(BodyIndex b) const {
  return impl_->table.state(b);
}
template <class A, class B, class W>
void EngineSimulation<A, B, W>::write(BodyIndex b, const ObjectState& state) {
  impl_->write(b, state);
}
template <class A, class B, class W>
void EngineSimulation<A, B, W>::save(Frame frame) {
  impl_->save(frame);
}
template <class A, class B, class W>
void EngineSimulation<A, B, W>::restore(Frame frame) {
  impl_->restore(frame);
}
template <class A, class B, class W>
std::optional<std::span<const BodyIndex>> EngineSimulation<A, B, W>::changed_bodies() const {
  return std::span<const BodyIndex>(impl_->table.changed());
}
template <class A, class B, class W>
void EngineSimulation<A, B, W>::set_frozen(BodyIndex b, bool frozen) {
  impl_->set_frozen(b, frozen);
}
template <class A, class B, class W>
std::size_t EngineSimulation<A, B, W>::user_bytes_size(std::uint16_t type) const {
  return impl_->table.user_bytes_size(type);
}
template <class A, class B, class W>
void EngineSimulation<A, B, W>::read_user_bytes(BodyIndex b, std::span<std::uint8_t> out) const {
  impl_->table.read_user_bytes(b, out);
}
template <class A, class B, class W>
void EngineSimulation<A, B, W>::write_user_bytes(BodyIndex b, std::span<const std::uint8_t> bytes) {
  impl_->table.write_user_bytes(b, bytes);
}
template <class A, class B, class W>
std::size_t EngineSimulation<A, B, W>::spawn_slot_count() const {
  return impl_->spawn.slot_count();
}
template <class A, class B, class W>
void EngineSimulation<A, B, W>::add_body(BodyIndex b, std::uint16_t type, const ObjectState& state,
                                   std::span<const std::uint8_t> /*spawn_bytes*/) {
  impl_->fill_slot(b, type, state);
}
template <class A, class B, class W>
void EngineSimulation<A, B, W>::remove_body(BodyIndex b) {
  impl_->empty_slot_of(b);
}
template <class A, class B, class W>
bool EngineSimulation<A, B, W>::can_spawn(std::uint16_t type) const {
  return impl_->spawn.can_spawn(type);
}

}  // namespace shoal
