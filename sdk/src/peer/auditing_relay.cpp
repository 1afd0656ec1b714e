// SPDX-License-Identifier: MIT
// The auditing relay (shoal/audit.hpp): the relay server, whose observer hook hands every
// forwarded message to its session's Auditor, and which expels what the auditors suspect.
// Messages of secured links are opened first with the keys their senders disclosed to this
// relay's audit key (security/audit_disclosure.hpp), one direction of one link at a time.
#include <algorithm>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "shoal/audit.hpp"
#include "security/audit_disclosure.hpp"
#include "transport/relay_server.hpp"

namespace shoal {

struct AuditingRelay::Impl {
  struct Audited {
    explicit Audited(const AuditConfig& c) : auditor(c) {}
    Auditor auditor;
    std::vector<std::uint16_t> expelled;
  };

  explicit Impl(const AuditingRelayConfig& c)
      : config(c), check((Auditor(c.audit), 0)), server(server_config(c)) {}

  transport::RelayServerConfig server_config(const AuditingRelayConfig& c) {
    transport::RelayServerConfig s;
    s.bind_host = c.bind_host;
    s.port = c.port;
    s.max_sessions = c.max_sessions;
    s.observer = [this](const std::string& session, transport::Slot from, transport::Slot to, Channel channel,
                        std::span<const std::uint8_t> bytes) { observe(session, from, to, channel, bytes); };
    return s;
  }

  void observe(const std::string& session, transport::Slot from, transport::Slot to, Channel channel,
               std::span<const std::uint8_t> bytes) {
    const Direction direction{session, from, to};
    if (security::is_disclosure(channel, bytes)) {
      // A new link (or the same pair's next one) in that direction: its key replaces the last.
      if (const auto key = security::read_disclosure(bytes, audit_keys)) {
        security::LinkKeys keys;
        keys.receive = *key;
        openers[direction] = std::make_unique<security::Envelope>(keys);
      }
      return;
    }
    const auto opener = openers.find(direction);
    if (opener == openers.end()) {  // in the clear (or its key was never disclosed: unreadable)
      audited(session).auditor.observe(from, to, channel, bytes);
      return;
    }
    if (!opener->second->open(channel, bytes, opened)) audited(session).auditor.observe(from, to, channel, opened);
  }

  Audited& audited(const std::string& session) {
    auto found = sessions.find(session);
    if (found == sessions.end()) found = sessions.try_emplace(session, config.audit).first;
    return found->second;
  }

  void expel_suspects() {
    // A session ends when its last member leaves: its auditor goes with it.
    std::erase_if(sessions, [this](const auto& s) { return !server.has_session(s.first); });
    std::erase_if(openers, [this](const auto& o) { return !server.has_session(std::get<0>(o.first)); });
    for (auto& [session, audited] : sessions) {
      for (std::uint16_t slot : audited.auditor.suspects()) {
        if (std::find(audited.expelled.begin(), audited.expelled.end(), slot) != audited.expelled.end()) continue;
        if (server.expel(session, slot)) audited.expelled.push_back(slot);
      }
    }
  }

  using Direction = std::tuple<std::string, transport::Slot, transport::Slot>;  // session, from, to

  AuditingRelayConfig config;
  security::AuditKeys audit_keys;
  std::map<Direction, std::unique_ptr<security::Envelope>> openers;
  std::vector<std::uint8_t> opened;  // the last message opened
  int check;  // the audit config is validated (by building one Auditor) before the port is bound
  std::map<std::string, Audited> sessions;
  transport::RelayServer server;
};

AuditingRelay::AuditingRelay(const AuditingRelayConfig& config) : impl_(std::make_unique<Impl>(config)) {}
AuditingRelay::~AuditingRelay() = default;

void AuditingRelay::poll() {
  impl_->server.poll();
  impl_->expel_suspects();
}

void AuditingRelay::wait(int timeout_ms) { impl_->server.wait(timeout_ms); }

Address AuditingRelay::address() const { return impl_->server.address(); }

std::array<std::uint8_t, 32> AuditingRelay::audit_key() const { return impl_->audit_keys.public_key; }

std::vector<AuditPeerStats> AuditingRelay::audit_stats(const std::string& session) const {
  const auto found = impl_->sessions.find(session);
  return found == impl_->sessions.end() ? std::vector<AuditPeerStats>{} : found->second.auditor.stats();
}

std::vector<std::uint16_t> AuditingRelay::expelled(const std::string& session) const {
  const auto found = impl_->sessions.find(session);
  return found == impl_->sessions.end() ? std::vector<std::uint16_t>{} : found->second.expelled;
}

std::size_t AuditingRelay::members(const std::string& session) const {
  for (const transport::RelaySessionStats& s : impl_->server.session_stats()) {
    if (s.session == session) return s.members;
  }
  return 0;
}

}  // namespace shoal
