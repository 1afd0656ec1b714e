// SPDX-License-Identifier: MIT
using System;
using Shoal.Interop;

namespace Shoal
{
    /// <summary>
    /// Shoal's built-in physics (shoal::ReferencePhysics): spheres and boxes in a walled arena.
    /// Build the same bodies in the same order on every peer, then hand it to one <see cref="Peer"/>,
    /// which must be disposed first.
    /// </summary>
    public sealed class World : IDisposable
    {
        internal readonly WorldHandle Handle;

        /// <summary>An empty world; the library checks every field and names the one it refuses.</summary>
        public World(WorldConfig config)
        {
            Library.EnsureCompatible();
            ShoalException.Check(Native.shoal_world_create(config.raw, out IntPtr pointer));
            Handle = new WorldHandle(pointer);
        }

        /// <summary>A world on the default config.</summary>
        public World() : this(new WorldConfig()) { }

        /// <summary>Adds a sphere (mass 0 = static).</summary>
        public void AddSphere(uint id, float radius, float mass, in ObjectState initial) =>
            ShoalException.Check(Native.shoal_world_add_sphere(Handle, id, radius, mass, initial));

        /// <summary>Adds a box of these half extents, m (mass 0 = static).</summary>
        public void AddBox(uint id, float halfX, float halfY, float halfZ, float mass, in ObjectState initial) =>
            ShoalException.Check(Native.shoal_world_add_box(Handle, id, halfX, halfY, halfZ, mass, initial));

        /// <summary>Objects of <paramref name="type"/> spawned during play are spheres of this radius and mass.</summary>
        public void SetSpawnSphere(ushort type, float radius, float mass) =>
            ShoalException.Check(Native.shoal_world_set_spawn_sphere(Handle, type, radius, mass));

        /// <summary>Objects of <paramref name="type"/> spawned during play are boxes of these half extents and mass.</summary>
        public void SetSpawnBox(ushort type, float halfX, float halfY, float halfZ, float mass) =>
            ShoalException.Check(Native.shoal_world_set_spawn_box(Handle, type, halfX, halfY, halfZ, mass));

        /// <summary>Reserves spawn slots after the fixed bodies (add every fixed body first); once.</summary>
        public void AddSpawnSlots(uint count) => ShoalException.Check(Native.shoal_world_add_spawn_slots(Handle, count));

        /// <summary>Destroys the world (after its peer).</summary>
        public void Dispose() => Handle.Dispose();
    }
}
