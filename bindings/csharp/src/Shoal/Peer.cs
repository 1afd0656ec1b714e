// SPDX-License-Identifier: MIT
#nullable enable  // as in Unity, where the project does not turn it on
// One game instance in a match (shoal_peer). Once per render frame: SetInput, Update, PollEvent
// until false, then draw ReadVisuals (or Visual per object). None of these allocate on the
// managed heap; one peer is used by one thread at a time.
using System;
using System.Runtime.InteropServices;
using Shoal.Interop;

namespace Shoal
{
    /// <summary>
    /// One player's end of a match (shoal::Peer): hosts or joins, steps the shared world, sends what
    /// it owns and corrects what others own. It owns its transport; its world or simulation must
    /// outlive it (dispose the peer first).
    /// </summary>
    public sealed class Peer : IDisposable
    {
        /// <summary>The peer id meaning "nobody".</summary>
        public const ushort NoPeer = 0xFFFF;
        /// <summary>The frame number meaning "none".</summary>
        public const int NoFrame = -1;
        /// <summary>The most bytes one reliable game message carries.</summary>
        public const int MaxReliableMessageBytes = 16384;
        /// <summary>The most bytes one unreliable game message carries.</summary>
        public const int MaxUnreliableMessageBytes = 1192;
        /// <summary>The most bytes of the game's own input per frame.</summary>
        public const int MaxInputBytes = 64;
        /// <summary>The most spawn bytes one spawned object carries.</summary>
        public const int MaxSpawnBytes = 64;

        private readonly PeerHandle handle;
        private readonly object keepAlive;             // the world or simulation: it must outlive the peer
        private readonly SimulationHandle? ownSimulation;  // an engine world's simulation, made for this peer
        private readonly Simulation? managedSimulation;    // a C# simulation, whose native side this peer made
        private GCHandle log;                              // the config's Log, reached from the static callback

        /// <summary>A peer on the reference physics.</summary>
        public Peer(PeerConfig config, World world, Transport transport)
        {
            keepAlive = world;
            handle = Create(config, transport, (in shoal_peer_config c, IntPtr t, out IntPtr p) =>
                Native.shoal_peer_create_with_world(c, world.Handle, t, out p));
        }

        /// <summary>A peer on a game's simulation written in C#.</summary>
        public Peer(PeerConfig config, Simulation simulation, Transport transport)
        {
            keepAlive = simulation;
            managedSimulation = simulation;
            SimulationHandle native;
            try { native = simulation.Native(); }
            catch { transport.Dispose(); throw; }
            try
            {
                handle = Create(config, transport, (in shoal_peer_config c, IntPtr t, out IntPtr p) =>
                    Native.shoal_peer_create_with_simulation(c, native, t, out p));
            }
            catch
            {
                simulation.ReleaseNative();
                throw;
            }
        }

        /// <summary>A peer on a Box2D world, simulated in native code.</summary>
        public Peer(PeerConfig config, Box2dWorld world, Transport transport) : this(config, world, world.CreateSimulation, transport) { }

        /// <summary>A peer on a Bullet world, simulated in native code.</summary>
        public Peer(PeerConfig config, BulletWorld world, Transport transport) : this(config, world, world.CreateSimulation, transport) { }

        private Peer(PeerConfig config, object world, Func<SimulationHandle> simulation, Transport transport)
        {
            keepAlive = world;
            SimulationHandle native;
            try { native = simulation(); }
            catch { transport.Dispose(); throw; }
            ownSimulation = native;
            try
            {
                handle = Create(config, transport, (in shoal_peer_config c, IntPtr t, out IntPtr p) =>
                    Native.shoal_peer_create_with_simulation(c, native, t, out p));
            }
            catch
            {
                native.Dispose();
                throw;
            }
        }

        private delegate int CreateCall(in shoal_peer_config config, IntPtr transport, out IntPtr peer);

        // The config's tables are pinned for the call (the library copies them) and its log
        // callback set up; the transport is the peer's from here on, whatever happens.
        private PeerHandle Create(PeerConfig config, Transport transport, CreateCall create)
        {
            IntPtr takenTransport = transport.Take();
            shoal_peer_config raw = config.raw;
            var rules = new shoal_smoothing_entry[config.SmoothingRules.Count];
            for (int i = 0; i < rules.Length; ++i)
            {
                SmoothingEntry e = config.SmoothingRules[i];
                rules[i] = new shoal_smoothing_entry { object_type = e.ObjectType, control_mode = (int)e.ControlMode, rule = e.Rule };
            }
            ushort[] removed = config.RemovedOnLeave.ToArray();
            GCHandle rulesPin = GCHandle.Alloc(rules, GCHandleType.Pinned);
            GCHandle removedPin = GCHandle.Alloc(removed, GCHandleType.Pinned);
            try
            {
                raw.smoothing_rules = rules.Length > 0 ? rulesPin.AddrOfPinnedObject() : IntPtr.Zero;
                raw.smoothing_rule_count = rules.Length;
                raw.removed_on_leave = removed.Length > 0 ? removedPin.AddrOfPinnedObject() : IntPtr.Zero;
                raw.removed_on_leave_count = (uint)removed.Length;
                if (config.Log != null)
                {
                    log = GCHandle.Alloc(config.Log);
                    raw.log_callback = LogThunk.Pointer;
                    raw.log_user = GCHandle.ToIntPtr(log);
                }
                int status = create(raw, takenTransport, out IntPtr pointer);
                CallbackErrors.Rethrow();
                ShoalException.Check(status);
                return new PeerHandle(pointer);
            }
            catch
            {
                if (log.IsAllocated) log.Free();
                throw;
            }
            finally
            {
                rulesPin.Free();
                removedPin.Free();
            }
        }

        /// <summary>The native shoal_peer*, for the benchmark's C++ side (valid while the peer lives).</summary>
        internal IntPtr NativePointer => handle.DangerousGetHandle();

        private int Call(int status)
        {
            CallbackErrors.Rethrow();  // what the game's own callbacks threw meanwhile comes first
            return status < 0 ? throw ShoalException.FromStatus(status) : status;
        }

        /// <summary>Starts a match as its host (peer 0); the match starts at the next update.</summary>
        public void Host() => Call(Native.shoal_peer_host(handle));

        /// <summary>Joins the match hosted at host:port; EventKind.JoinedMatch follows.</summary>
        public void Join(string host, ushort port) => Call(Native.shoal_peer_join(handle, host, port));

        /// <summary>Joins the match hosted at this address.</summary>
        public void Join(Address host) => Join(host.Host, host.Port);

        /// <summary>Records everything that reaches the peer to a file, for shoal-replay; before Host or Join.</summary>
        public void Record(string path, byte[]? world = null) =>
            Call(Native.shoal_peer_record(handle, path, world, (UIntPtr)(world?.Length ?? 0)));

        /// <summary>Leaves gracefully so the others take over at once; blocks up to 250 ms.</summary>
        public void Leave() => Call(Native.shoal_peer_leave(handle));

        /// <summary>Sets the object the local player drives.</summary>
        public void SetControlled(uint id) => Call(Native.shoal_peer_set_controlled(handle, id));

        /// <summary>Input for the frames simulated from now on, until changed.</summary>
        public void SetInput(in Input input) => Call(Native.shoal_peer_set_input(handle, input));

        /// <summary>The game's own input bytes (up to the config's InputBytes), from now on, until changed.</summary>
        public void SetInputBytes(ReadOnlySpan<byte> bytes) =>
            Call(Native.shoal_peer_set_input_bytes(handle, in MemoryMarshal.GetReference(bytes), (uint)bytes.Length));

        /// <summary>Receives, catches up, steps the frames due by the steady clock, sends; once per render frame.</summary>
        public void Update() => Call(Native.shoal_peer_update(handle));

        /// <summary>The same at an explicit time (µs on any monotonic clock), e.g. a MemoryNetwork's.</summary>
        public void UpdateAt(long nowUs) => Call(Native.shoal_peer_update_at(handle, nowUs));

        /// <summary>Blocks until traffic arrives or <paramref name="timeoutMs"/> pass (loops without vsync).</summary>
        public void Wait(int timeoutMs) => Call(Native.shoal_peer_wait(handle, timeoutMs));

        /// <summary>Takes the next event; false when there is none.</summary>
        public bool PollEvent(out Event nextEvent)
        {
            int status = Call(Native.shoal_peer_poll_event(handle, out shoal_event e));
            nextEvent = new Event(e);
            return status == 1;
        }

        /// <summary>Why the last event polled happened (incompatible peers, failed joins); "" otherwise.</summary>
        public string EventReason => Text.FromNative(Native.shoal_peer_event_reason(handle));

        /// <summary>The bytes of the last event polled when it was a message, valid until the next
        /// PollEvent; throws ShoalException when it was none.</summary>
        public ReadOnlySpan<byte> LastMessage
        {
            get
            {
                Call(Native.shoal_peer_event_message(handle, out IntPtr bytes, out UIntPtr size, out _));
                unsafe { return new ReadOnlySpan<byte>((void*)bytes, (int)size); }
            }
        }

        /// <summary>Whether the last message polled came reliably.</summary>
        public bool LastMessageReliable
        {
            get
            {
                Call(Native.shoal_peer_event_message(handle, out _, out _, out int reliable));
                return reliable != 0;
            }
        }

        /// <summary>Sends a game message to peer <paramref name="to"/> (NoPeer: every other peer),
        /// tagged with <paramref name="frame"/>. False when it would exceed this peer's message rate
        /// (nothing sent: try later).</summary>
        public bool SendMessage(ushort to, ReadOnlySpan<byte> bytes, Delivery delivery = Delivery.Reliable, int frame = NoFrame) =>
            Call(Native.shoal_peer_send_message(handle, to, in MemoryMarshal.GetReference(bytes), (UIntPtr)bytes.Length,
                                                (int)delivery, frame)) == 1;

        /// <summary>Changes the simulated network of the peer's transport at run time.</summary>
        public void SetConditions(Conditioner conditions) => Call(Native.shoal_peer_set_conditions(handle, conditions));

        /// <summary>Hosting, or joined with a synchronised clock.</summary>
        public bool InMatch { get { Call(Native.shoal_peer_in_match(handle, out int inMatch)); return inMatch != 0; } }

        /// <summary>Which step of joining the peer is in.</summary>
        public JoinProgress JoinProgress
        {
            get { Call(Native.shoal_peer_join_progress(handle, out shoal_join_progress p)); return new JoinProgress(p); }
        }

        /// <summary>This peer's id, NoPeer until it hosts or joins.</summary>
        public ushort Id { get { Call(Native.shoal_peer_id(handle, out ushort id)); return id; } }

        /// <summary>The newest simulated frame, NoFrame before the first.</summary>
        public int Frame { get { Call(Native.shoal_peer_frame(handle, out int frame)); return frame; } }

        /// <summary>Live peers, self included, ascending, into <paramref name="ids"/>; returns how many exist.</summary>
        public int ReadPeers(Span<ushort> ids)
        {
            Call(Native.shoal_peer_peers(handle, ref MemoryMarshal.GetReference(ids), (uint)ids.Length, out uint count));
            return (int)count;
        }

        /// <summary>Live peers, self included, ascending.</summary>
        public ushort[] Peers
        {
            get
            {
                var ids = new ushort[ReadPeers(Span<ushort>.Empty)];
                int count = ReadPeers(ids);
                return count == ids.Length ? ids : ids.AsSpan(0, Math.Min(count, ids.Length)).ToArray();
            }
        }

        /// <summary>The object's simulation state at the newest frame.</summary>
        public ObjectState State(uint id)
        {
            Call(Native.shoal_peer_state(handle, id, out ObjectState state));
            return state;
        }

        /// <summary>The object's state at a frame still in the history (to compare peers at one frame).</summary>
        public ObjectState StateAt(uint id, int frame)
        {
            Call(Native.shoal_peer_state_at(handle, id, frame, out ObjectState state));
            return state;
        }

        /// <summary>What to draw for the object: smoothed and render-interpolated.</summary>
        public VisualState Visual(uint id)
        {
            Call(Native.shoal_peer_visual(handle, id, out VisualState visual));
            return visual;
        }

        /// <summary>Every body's visual state in one call, in body order (ReadObjects gives their
        /// ids): fills <paramref name="visuals"/> as far as it goes and returns how many bodies there are.</summary>
        public int ReadVisuals(Span<VisualState> visuals)
        {
            Call(Native.shoal_peer_visuals(handle, ref MemoryMarshal.GetReference(visuals), (uint)visuals.Length, out uint count));
            return (int)count;
        }

        /// <summary>The object id of every body, in the order of ReadVisuals; returns how many bodies there are.</summary>
        public int ReadObjects(Span<uint> ids)
        {
            Call(Native.shoal_peer_objects(handle, ref MemoryMarshal.GetReference(ids), (uint)ids.Length, out uint count));
            return (int)count;
        }

        /// <summary>The object's owner, NoPeer before the match.</summary>
        public ushort Owner(uint id)
        {
            Call(Native.shoal_peer_owner(handle, id, out ushort owner));
            return owner;
        }

        /// <summary>What this peer knows of the object at a frame, for finding out why peers disagree
        /// on it: a frame outside the history is no error (<see cref="ObjectDiagnosis.Held"/> false).</summary>
        public ObjectDiagnosis Diagnose(uint id, int frame)
        {
            Call(Native.shoal_peer_diagnose(handle, id, frame, out shoal_object_diagnosis d));
            return new ObjectDiagnosis(d);
        }

        /// <summary>Where other peers reach this one (the actual port when bound to port 0).</summary>
        public Address Address
        {
            get { Call(Native.shoal_peer_address(handle, out shoal_address address)); return Address.FromNative(address); }
        }

        /// <summary>Spawns an object of game-defined <paramref name="type"/>, owned by this peer, from the
        /// next frame on every peer, with up to MaxSpawnBytes of its own; returns its id.</summary>
        public uint Spawn(ushort type, in ObjectState state, ReadOnlySpan<byte> spawnBytes = default)
        {
            Call(Native.shoal_peer_spawn(handle, type, state, in MemoryMarshal.GetReference(spawnBytes), (uint)spawnBytes.Length,
                                         out uint id));
            return id;
        }

        /// <summary>Removes a spawned object this peer owns, from the next frame, on every peer.</summary>
        public void Remove(uint id) => Call(Native.shoal_peer_remove(handle, id));

        /// <summary>The live spawned objects, ascending id, into <paramref name="ids"/>; returns how many are live.</summary>
        public int ReadSpawnedObjects(Span<uint> ids)
        {
            Call(Native.shoal_peer_spawned_objects(handle, ref MemoryMarshal.GetReference(ids), (uint)ids.Length, out uint count));
            return (int)count;
        }

        /// <summary>A live spawned object's type, spawner, owner, frame and bytes; null for any other id.</summary>
        public SpawnedObject? SpawnedObject(uint id)
        {
            int status = Native.shoal_peer_spawned_object(handle, id, out shoal_spawned_object o);
            if (status == (int)ErrorCode.UnknownObject) return null;
            Call(status);
            return new SpawnedObject(o);
        }

        /// <summary>The peer's counters.</summary>
        public PeerStats Stats { get { Call(Native.shoal_peer_stats(handle, out shoal_stats s)); return new PeerStats(s); } }

        /// <summary>The counters of the game's spawns, removals and messages, and the match's pace.</summary>
        public GameStats GameStats { get { Call(Native.shoal_peer_game_stats(handle, out shoal_game_stats s)); return new GameStats(s); } }

        /// <summary>What the peer dropped of what it received, by reason: fills <paramref name="counts"/>,
        /// indexed by <see cref="DropReason"/> (DropReason.Count entries hold them all).</summary>
        public void ReadDrops(Span<ulong> counts) =>
            Call(Native.shoal_peer_drops(handle, ref MemoryMarshal.GetReference(counts), (uint)counts.Length));

        /// <summary>Remote peer number <paramref name="index"/> (0..Stats.RemoteCount-1) and its link.</summary>
        public RemoteStats RemoteStats(int index)
        {
            Call(Native.shoal_peer_remote_stats(handle, (uint)index, out shoal_remote_stats s));
            return new RemoteStats(s);
        }

        /// <summary>Destroys the peer and its transport (without a goodbye: see Leave).</summary>
        public void Dispose()
        {
            if (handle.IsClosed) return;
            handle.Dispose();
            ownSimulation?.Dispose();
            managedSimulation?.ReleaseNative();
            if (log.IsAllocated) log.Free();
            GC.KeepAlive(keepAlive);
        }

        private static class LogThunk
        {
            private static readonly LogFn Fn = Log;
            public static readonly IntPtr Pointer = Marshal.GetFunctionPointerForDelegate(Fn);

            [MonoPInvokeCallback(typeof(LogFn))]
            private static void Log(IntPtr user, int level, IntPtr text)
            {
                try { CallbackErrors.Target<Action<LogLevel, string>>(user)((LogLevel)level, Text.FromNative(text)); }
                catch (Exception e) { CallbackErrors.Record(e); }
            }
        }
    }
}
