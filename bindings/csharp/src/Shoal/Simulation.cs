// SPDX-License-Identifier: MIT
#nullable enable  // as in Unity, where the project does not turn it on
// A game's physics written in C#, seen by the peer as shoal_simulation_callbacks. The callbacks
// are static methods (what IL2CPP can call from native code); each reaches its Simulation
// through the user pointer, a GCHandle the peer's native simulation holds.
using System;
using System.Runtime.InteropServices;
using Shoal.Interop;

namespace Shoal
{
    /// <summary>
    /// A game's own physics, stepped by a <see cref="Peer"/> (shoal/simulation.hpp). Bodies are
    /// indices 0..BodyCount-1, in the same order on every peer; stepping must be deterministic.
    /// The peer calls these from its own calls (Update mostly), on their thread; they must not call
    /// into that peer. An exception thrown here is rethrown by the peer's call.
    /// </summary>
    public abstract class Simulation
    {
        /// <summary>Advances one fixed step to <paramref name="frame"/>. <paramref name="inputs"/>
        /// lists the controlled bodies; input i's own bytes (the config's InputBytes of them count)
        /// are <c>inputBytes.Slice(i * 64, 64)</c>.</summary>
        public abstract void Step(int frame, ReadOnlySpan<BodyInput> inputs, ReadOnlySpan<byte> inputBytes);
        /// <summary>The number of bodies; fixed once a peer uses the simulation.</summary>
        public abstract int BodyCount { get; }
        /// <summary>The object id of a body: unique, the same on every peer.</summary>
        public abstract uint BodyId(int body);
        /// <summary>Radius around the body's position containing all of it, m.</summary>
        public abstract float BoundingRadius(int body);
        /// <summary>The body's current state.</summary>
        public abstract void Read(int body, out ObjectState state);
        /// <summary>Sets the body's state (AtRest puts it to sleep); a Read right after returns it.</summary>
        public abstract void Write(int body, in ObjectState state);
        /// <summary>Keeps engine-private state after stepping <paramref name="frame"/> (nothing by default).</summary>
        public virtual void Save(int frame) { }
        /// <summary>Brings back what Save(frame) kept (nothing by default).</summary>
        public virtual void Restore(int frame) { }
        /// <summary>A small game-defined body type (smoothing rules, user bytes); 0 by default.</summary>
        public virtual ushort BodyType(int body) => 0;
        /// <summary>How many of the last bodies are spawn slots, empty at first (0: no spawning).
        /// An empty slot reads as the default state at rest and touches nothing.</summary>
        public virtual int SpawnSlotCount => 0;
        /// <summary>Fills empty slot <paramref name="body"/> with a body of <paramref name="type"/> in
        /// <paramref name="state"/>, with the spawner's bytes. Deterministic, like Step.</summary>
        public virtual void AddBody(int body, ushort type, in ObjectState state, ReadOnlySpan<byte> spawnBytes) =>
            throw new NotSupportedException("this simulation has spawn slots but does not override AddBody");
        /// <summary>Empties slot <paramref name="body"/>.</summary>
        public virtual void RemoveBody(int body) =>
            throw new NotSupportedException("this simulation has spawn slots but does not override RemoveBody");
        /// <summary>Whether AddBody can build bodies of <paramref name="type"/> (every type by default).</summary>
        public virtual bool CanSpawn(ushort type) => true;
        /// <summary>Leaves a body out of the following steps (true) or takes it back (false): a
        /// frozen body keeps its state and is an immovable obstacle. Override it and the peer
        /// freezes what lies outside its simulated region; otherwise every body is always stepped.</summary>
        public virtual void SetFrozen(int body, bool frozen) { }
        /// <summary>Game state kept identical on every peer, recorded, sent, compared and restored
        /// like the state: this many bytes (0..32) per body of <paramref name="type"/>. Override it
        /// with ReadUserBytes and WriteUserBytes; 0 by default.</summary>
        public virtual int UserBytesSize(ushort type) => 0;
        /// <summary>Copies a body's user bytes into <paramref name="bytes"/> (UserBytesSize of its type).</summary>
        public virtual void ReadUserBytes(int body, Span<byte> bytes) { }
        /// <summary>Sets a body's user bytes.</summary>
        public virtual void WriteUserBytes(int body, ReadOnlySpan<byte> bytes) { }

        private bool Overrides(string method) => GetType().GetMethod(method)!.DeclaringType != typeof(Simulation);

        // ---------------------------------------------------------------- the native side
        private SimulationHandle? native;
        private GCHandle self;

        /// <summary>The native simulation over these callbacks, made once (when the first peer uses it).</summary>
        internal SimulationHandle Native()
        {
            if (native != null) return native;
            Library.EnsureCompatible();
            self = GCHandle.Alloc(this);
            IntPtr user = GCHandle.ToIntPtr(self);
            var callbacks = new shoal_simulation_callbacks
            {
                struct_size = (uint)Marshal.SizeOf<shoal_simulation_callbacks>(),
                user = user,
                step_with_bytes = Thunks.StepPointer,
                body_count = Thunks.BodyCountPointer,
                body_id = Thunks.BodyIdPointer,
                bounding_radius = Thunks.BoundingRadiusPointer,
                read = Thunks.ReadPointer,
                write = Thunks.WritePointer,
                save = Thunks.SavePointer,
                restore = Thunks.RestorePointer,
                body_type = Thunks.BodyTypePointer,
                set_frozen = Overrides(nameof(SetFrozen)) ? Thunks.SetFrozenPointer : IntPtr.Zero,
            };
            if (Overrides(nameof(UserBytesSize)))
            {
                callbacks.user_bytes_size = Thunks.UserBytesSizePointer;
                callbacks.read_user_bytes = Thunks.ReadUserBytesPointer;
                callbacks.write_user_bytes = Thunks.WriteUserBytesPointer;
            }
            int status = Interop.Native.shoal_simulation_create(callbacks, out IntPtr pointer);
            if (status < 0)
            {
                self.Free();
                throw ShoalException.FromStatus(status);
            }
            var handle = new SimulationHandle(pointer);
            if (SpawnSlotCount > 0)
            {
                var spawning = new shoal_spawn_callbacks
                {
                    struct_size = (uint)Marshal.SizeOf<shoal_spawn_callbacks>(),
                    spawn_slot_count = (uint)SpawnSlotCount,
                    add_body_with_bytes = Thunks.AddBodyPointer,
                    remove_body = Thunks.RemoveBodyPointer,
                    can_spawn = Thunks.CanSpawnPointer,
                };
                status = Interop.Native.shoal_simulation_set_spawning(handle, spawning);
                if (status < 0)
                {
                    ShoalException failure = ShoalException.FromStatus(status);
                    handle.Dispose();
                    self.Free();
                    throw failure;
                }
            }
            native = handle;
            return handle;
        }

        /// <summary>Destroys the native simulation once its peer is gone; a later peer makes a new one.</summary>
        internal void ReleaseNative()
        {
            if (native == null) return;
            native.Dispose();
            native = null;
            self.Free();
        }

        private static class Thunks
        {
            // The delegates live as long as the program: native code keeps their pointers.
            private static readonly StepWithBytesFn StepFn = Step;
            private static readonly BodyCountFn BodyCountFn = BodyCount;
            private static readonly BodyIdFn BodyIdFn = BodyId;
            private static readonly BoundingRadiusFn RadiusFn = BoundingRadius;
            private static readonly ReadStateFn ReadFn = Read;
            private static readonly WriteStateFn WriteFn = Write;
            private static readonly FrameFn SaveFn = Save;
            private static readonly FrameFn RestoreFn = Restore;
            private static readonly BodyTypeFn BodyTypeFn = BodyType;
            private static readonly AddBodyFn AddBodyFn = AddBody;
            private static readonly BodyFn RemoveBodyFn = RemoveBody;
            private static readonly CanSpawnFn CanSpawnFn = CanSpawn;
            private static readonly SetFrozenFn SetFrozenFn = SetFrozen;
            private static readonly UserBytesSizeFn UserBytesSizeFn = UserBytesSize;
            private static readonly UserBytesFn ReadUserBytesFn = ReadUserBytes;
            private static readonly UserBytesFn WriteUserBytesFn = WriteUserBytes;

            public static readonly IntPtr StepPointer = Marshal.GetFunctionPointerForDelegate(StepFn);
            public static readonly IntPtr BodyCountPointer = Marshal.GetFunctionPointerForDelegate(BodyCountFn);
            public static readonly IntPtr BodyIdPointer = Marshal.GetFunctionPointerForDelegate(BodyIdFn);
            public static readonly IntPtr BoundingRadiusPointer = Marshal.GetFunctionPointerForDelegate(RadiusFn);
            public static readonly IntPtr ReadPointer = Marshal.GetFunctionPointerForDelegate(ReadFn);
            public static readonly IntPtr WritePointer = Marshal.GetFunctionPointerForDelegate(WriteFn);
            public static readonly IntPtr SavePointer = Marshal.GetFunctionPointerForDelegate(SaveFn);
            public static readonly IntPtr RestorePointer = Marshal.GetFunctionPointerForDelegate(RestoreFn);
            public static readonly IntPtr BodyTypePointer = Marshal.GetFunctionPointerForDelegate(BodyTypeFn);
            public static readonly IntPtr AddBodyPointer = Marshal.GetFunctionPointerForDelegate(AddBodyFn);
            public static readonly IntPtr RemoveBodyPointer = Marshal.GetFunctionPointerForDelegate(RemoveBodyFn);
            public static readonly IntPtr CanSpawnPointer = Marshal.GetFunctionPointerForDelegate(CanSpawnFn);
            public static readonly IntPtr SetFrozenPointer = Marshal.GetFunctionPointerForDelegate(SetFrozenFn);
            public static readonly IntPtr UserBytesSizePointer = Marshal.GetFunctionPointerForDelegate(UserBytesSizeFn);
            public static readonly IntPtr ReadUserBytesPointer = Marshal.GetFunctionPointerForDelegate(ReadUserBytesFn);
            public static readonly IntPtr WriteUserBytesPointer = Marshal.GetFunctionPointerForDelegate(WriteUserBytesFn);

            private static Simulation Of(IntPtr user) => CallbackErrors.Target<Simulation>(user);

            [MonoPInvokeCallback(typeof(StepWithBytesFn))]
            private static unsafe void Step(IntPtr user, int frame, IntPtr inputs, IntPtr inputBytes, uint count)
            {
                try
                {
                    var bodyInputs = new ReadOnlySpan<BodyInput>((void*)inputs, (int)count);
                    var bytes = new ReadOnlySpan<byte>((void*)inputBytes, (int)count * Capacity.MaxInputBytes);
                    Of(user).Step(frame, bodyInputs, bytes);
                }
                catch (Exception e) { CallbackErrors.Record(e); }
            }

            [MonoPInvokeCallback(typeof(BodyCountFn))]
            private static uint BodyCount(IntPtr user)
            {
                try { return (uint)Of(user).BodyCount; }
                catch (Exception e) { CallbackErrors.Record(e); return 0; }
            }

            [MonoPInvokeCallback(typeof(BodyIdFn))]
            private static uint BodyId(IntPtr user, uint body)
            {
                try { return Of(user).BodyId((int)body); }
                catch (Exception e) { CallbackErrors.Record(e); return 0; }
            }

            [MonoPInvokeCallback(typeof(BoundingRadiusFn))]
            private static float BoundingRadius(IntPtr user, uint body)
            {
                try { return Of(user).BoundingRadius((int)body); }
                catch (Exception e) { CallbackErrors.Record(e); return 0; }
            }

            [MonoPInvokeCallback(typeof(ReadStateFn))]
            private static unsafe void Read(IntPtr user, uint body, IntPtr state)
            {
                try { Of(user).Read((int)body, out *(ObjectState*)state); }
                catch (Exception e) { CallbackErrors.Record(e); }
            }

            [MonoPInvokeCallback(typeof(WriteStateFn))]
            private static unsafe void Write(IntPtr user, uint body, IntPtr state)
            {
                try { Of(user).Write((int)body, in *(ObjectState*)state); }
                catch (Exception e) { CallbackErrors.Record(e); }
            }

            [MonoPInvokeCallback(typeof(FrameFn))]
            private static void Save(IntPtr user, int frame)
            {
                try { Of(user).Save(frame); }
                catch (Exception e) { CallbackErrors.Record(e); }
            }

            [MonoPInvokeCallback(typeof(FrameFn))]
            private static void Restore(IntPtr user, int frame)
            {
                try { Of(user).Restore(frame); }
                catch (Exception e) { CallbackErrors.Record(e); }
            }

            [MonoPInvokeCallback(typeof(BodyTypeFn))]
            private static ushort BodyType(IntPtr user, uint body)
            {
                try { return Of(user).BodyType((int)body); }
                catch (Exception e) { CallbackErrors.Record(e); return 0; }
            }

            [MonoPInvokeCallback(typeof(AddBodyFn))]
            private static unsafe void AddBody(IntPtr user, uint body, ushort type, IntPtr state, IntPtr bytes, uint size)
            {
                try { Of(user).AddBody((int)body, type, in *(ObjectState*)state, new ReadOnlySpan<byte>((void*)bytes, (int)size)); }
                catch (Exception e) { CallbackErrors.Record(e); }
            }

            [MonoPInvokeCallback(typeof(BodyFn))]
            private static void RemoveBody(IntPtr user, uint body)
            {
                try { Of(user).RemoveBody((int)body); }
                catch (Exception e) { CallbackErrors.Record(e); }
            }

            [MonoPInvokeCallback(typeof(SetFrozenFn))]
            private static void SetFrozen(IntPtr user, uint body, int frozen)
            {
                try { Of(user).SetFrozen((int)body, frozen != 0); }
                catch (Exception e) { CallbackErrors.Record(e); }
            }

            [MonoPInvokeCallback(typeof(UserBytesSizeFn))]
            private static uint UserBytesSize(IntPtr user, ushort type)
            {
                try { return (uint)Of(user).UserBytesSize(type); }
                catch (Exception e) { CallbackErrors.Record(e); return 0; }
            }

            [MonoPInvokeCallback(typeof(UserBytesFn))]
            private static unsafe void ReadUserBytes(IntPtr user, uint body, IntPtr bytes, uint size)
            {
                try { Of(user).ReadUserBytes((int)body, new Span<byte>((void*)bytes, (int)size)); }
                catch (Exception e) { CallbackErrors.Record(e); }
            }

            [MonoPInvokeCallback(typeof(UserBytesFn))]
            private static unsafe void WriteUserBytes(IntPtr user, uint body, IntPtr bytes, uint size)
            {
                try { Of(user).WriteUserBytes((int)body, new ReadOnlySpan<byte>((void*)bytes, (int)size)); }
                catch (Exception e) { CallbackErrors.Record(e); }
            }

            [MonoPInvokeCallback(typeof(CanSpawnFn))]
            private static int CanSpawn(IntPtr user, ushort type)
            {
                try { return Of(user).CanSpawn(type) ? 1 : 0; }
                catch (Exception e) { CallbackErrors.Record(e); return 0; }
            }
        }
    }
}
