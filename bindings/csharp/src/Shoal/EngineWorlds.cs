// SPDX-License-Identifier: MIT
// The Box2D and Bullet worlds of shoal_box2d.h and shoal_bullet.h: built here, simulated in
// native code through the library's own callbacks (nothing crosses into C# per step).
using System;
using Shoal.Interop;

namespace Shoal
{
    internal static class Engines
    {
        public static ShoalException Missing(string engine) =>
            new ShoalException(ErrorCode.InvalidState,
                $"this {Native.Library} library was built without Shoal's {engine} adapter: build Shoal with " +
                $"{engine} installed (Debian's lib{engine.ToLowerInvariant()}-dev) to use it");

        /// <summary>A native simulation over an engine world's own callbacks, with its spawn slots.</summary>
        public static SimulationHandle Simulation(in shoal_simulation_callbacks callbacks, in shoal_spawn_callbacks spawning)
        {
            ShoalException.Check(Native.shoal_simulation_create(callbacks, out IntPtr pointer));
            var handle = new SimulationHandle(pointer);
            if (spawning.spawn_slot_count == 0) return handle;
            int status = Native.shoal_simulation_set_spawning(handle, spawning);
            if (status >= 0) return handle;
            ShoalException failure = ShoalException.FromStatus(status);
            handle.Dispose();
            throw failure;
        }
    }

    /// <summary>A Box2D world (shoal_box2d.h): walls, and shared discs and boxes, seen from above by default.</summary>
    public sealed class Box2dWorld : IDisposable
    {
        internal readonly Box2dWorldHandle Handle;

        /// <summary>An empty world.</summary>
        public Box2dWorld(Box2dConfig config)
        {
            Library.EnsureCompatible();
            ShoalException.Check(Native.shoal_box2d_world_create(config.raw, out IntPtr pointer));
            Handle = new Box2dWorldHandle(pointer);
        }

        /// <summary>A static box centred at (x, y): not shared, never moves.</summary>
        public void AddWall(float centerX, float centerY, float halfX, float halfY) =>
            ShoalException.Check(Native.shoal_box2d_world_add_wall(Handle, centerX, centerY, halfX, halfY));
        /// <summary>A shared dynamic disc of this density (kg/m^2).</summary>
        public void AddDisc(uint id, float radius, float density, in ObjectState initial) =>
            ShoalException.Check(Native.shoal_box2d_world_add_disc(Handle, id, radius, density, initial));
        /// <summary>A shared dynamic box.</summary>
        public void AddBox(uint id, float halfX, float halfY, float density, in ObjectState initial) =>
            ShoalException.Check(Native.shoal_box2d_world_add_box(Handle, id, halfX, halfY, density, initial));
        /// <summary>Spawned objects of this type are discs.</summary>
        public void SetSpawnDisc(ushort type, float radius, float density) =>
            ShoalException.Check(Native.shoal_box2d_world_set_spawn_disc(Handle, type, radius, density));
        /// <summary>Spawned objects of this type are boxes.</summary>
        public void SetSpawnBox(ushort type, float halfX, float halfY, float density) =>
            ShoalException.Check(Native.shoal_box2d_world_set_spawn_box(Handle, type, halfX, halfY, density));
        /// <summary>Reserves spawn slots after the shared bodies; once.</summary>
        public void AddSpawnSlots(uint count) => ShoalException.Check(Native.shoal_box2d_world_add_spawn_slots(Handle, count));

        internal SimulationHandle CreateSimulation()
        {
            ShoalException.Check(Native.shoal_box2d_world_callbacks(Handle, out shoal_simulation_callbacks callbacks));
            ShoalException.Check(Native.shoal_box2d_world_spawn_callbacks(Handle, out shoal_spawn_callbacks spawning));
            return Engines.Simulation(callbacks, spawning);
        }

        /// <summary>Destroys the world (after its peer).</summary>
        public void Dispose() => Handle.Dispose();
    }

    /// <summary>A Bullet world (shoal_bullet.h): static planes, and shared spheres and boxes; y is up.</summary>
    public sealed class BulletWorld : IDisposable
    {
        internal readonly BulletWorldHandle Handle;

        /// <summary>An empty world.</summary>
        public BulletWorld(BulletConfig config)
        {
            Library.EnsureCompatible();
            ShoalException.Check(Native.shoal_bullet_world_create(config.raw, out IntPtr pointer));
            Handle = new BulletWorldHandle(pointer);
        }

        /// <summary>A static plane: the points p with dot(normal, p) = offset, solid behind.</summary>
        public void AddPlane(Vec3 normal, float offset) => ShoalException.Check(Native.shoal_bullet_world_add_plane(Handle, normal, offset));
        /// <summary>A shared dynamic sphere of this mass, kg.</summary>
        public void AddSphere(uint id, float radius, float mass, in ObjectState initial) =>
            ShoalException.Check(Native.shoal_bullet_world_add_sphere(Handle, id, radius, mass, initial));
        /// <summary>A shared dynamic box.</summary>
        public void AddBox(uint id, Vec3 halfExtents, float mass, in ObjectState initial) =>
            ShoalException.Check(Native.shoal_bullet_world_add_box(Handle, id, halfExtents, mass, initial));
        /// <summary>Spawned objects of this type are spheres.</summary>
        public void SetSpawnSphere(ushort type, float radius, float mass) =>
            ShoalException.Check(Native.shoal_bullet_world_set_spawn_sphere(Handle, type, radius, mass));
        /// <summary>Spawned objects of this type are boxes.</summary>
        public void SetSpawnBox(ushort type, Vec3 halfExtents, float mass) =>
            ShoalException.Check(Native.shoal_bullet_world_set_spawn_box(Handle, type, halfExtents, mass));
        /// <summary>Reserves spawn slots after the shared bodies; once.</summary>
        public void AddSpawnSlots(uint count) => ShoalException.Check(Native.shoal_bullet_world_add_spawn_slots(Handle, count));

        internal SimulationHandle CreateSimulation()
        {
            ShoalException.Check(Native.shoal_bullet_world_callbacks(Handle, out shoal_simulation_callbacks callbacks));
            ShoalException.Check(Native.shoal_bullet_world_spawn_callbacks(Handle, out shoal_spawn_callbacks spawning));
            return Engines.Simulation(callbacks, spawning);
        }

        /// <summary>Destroys the world (after its peer).</summary>
        public void Dispose() => Handle.Dispose();
    }
}
