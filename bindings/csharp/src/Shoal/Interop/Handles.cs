// SPDX-License-Identifier: MIT
// One SafeHandle per opaque handle of shoal.h: each releases its native object exactly once,
// also when the game forgets to Dispose (the finalizer), and never while a call uses it.
using System;
using System.Runtime.InteropServices;

namespace Shoal.Interop
{
    internal abstract class NativeHandle : SafeHandle
    {
        protected NativeHandle(IntPtr pointer) : base(IntPtr.Zero, true) { SetHandle(pointer); }
        public override bool IsInvalid => handle == IntPtr.Zero;
    }

    internal sealed class WorldHandle : NativeHandle
    {
        public WorldHandle(IntPtr p) : base(p) { }
        protected override bool ReleaseHandle() => Native.shoal_world_destroy(handle) == 0;
    }

    internal sealed class SimulationHandle : NativeHandle
    {
        public SimulationHandle(IntPtr p) : base(p) { }
        protected override bool ReleaseHandle() => Native.shoal_simulation_destroy(handle) == 0;
    }

    internal sealed class TransportHandle : NativeHandle
    {
        public TransportHandle(IntPtr p) : base(p) { }
        protected override bool ReleaseHandle() => Native.shoal_transport_destroy(handle) == 0;
    }

    internal sealed class AuthorityHandle : NativeHandle
    {
        public AuthorityHandle(IntPtr p) : base(p) { }
        protected override bool ReleaseHandle() => Native.shoal_authority_destroy(handle) == 0;
    }

    internal sealed class MemoryNetworkHandle : NativeHandle
    {
        public MemoryNetworkHandle(IntPtr p) : base(p) { }
        protected override bool ReleaseHandle() => Native.shoal_memory_network_destroy(handle) == 0;
    }

    internal sealed class LanAnnouncerHandle : NativeHandle
    {
        public LanAnnouncerHandle(IntPtr p) : base(p) { }
        protected override bool ReleaseHandle() => Native.shoal_lan_announcer_destroy(handle) == 0;
    }

    internal sealed class LanSeekerHandle : NativeHandle
    {
        public LanSeekerHandle(IntPtr p) : base(p) { }
        protected override bool ReleaseHandle() => Native.shoal_lan_seeker_destroy(handle) == 0;
    }

    internal sealed class PeerHandle : NativeHandle
    {
        public PeerHandle(IntPtr p) : base(p) { }
        protected override bool ReleaseHandle() => Native.shoal_peer_destroy(handle) == 0;
    }

    internal sealed class Box2dWorldHandle : NativeHandle
    {
        public Box2dWorldHandle(IntPtr p) : base(p) { }
        protected override bool ReleaseHandle() => Native.shoal_box2d_world_destroy(handle) == 0;
    }

    internal sealed class BulletWorldHandle : NativeHandle
    {
        public BulletWorldHandle(IntPtr p) : base(p) { }
        protected override bool ReleaseHandle() => Native.shoal_bullet_world_destroy(handle) == 0;
    }
}
