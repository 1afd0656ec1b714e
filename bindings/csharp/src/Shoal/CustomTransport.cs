// SPDX-License-Identifier: MIT
#nullable enable  // as in Unity, where the project does not turn it on
// A game's own network in C# (Steam sockets, Epic, a platform relay) as shoal_transport_callbacks.
// The callbacks are static methods reaching the object through a GCHandle, which the native
// transport frees through its destroy callback when its peer goes.
using System;
using System.Runtime.InteropServices;
using Shoal.Interop;

namespace Shoal
{
    /// <summary>What <see cref="CustomTransport.Poll"/> reports: a connection up or down, or a message.</summary>
    public struct TransportEvent
    {
        /// <summary>What happened.</summary>
        public TransportEventKind Kind;
        /// <summary>On which connection.</summary>
        public uint Connection;
        /// <summary>Message only: the channel it came on.</summary>
        public Channel Channel;
        /// <summary>Message only: its bytes, left untouched until the next Poll.</summary>
        public ArraySegment<byte> Payload;
    }

    /// <summary>
    /// A transport written by the game: what shoal::Transport asks of a network. Connections are
    /// numbered by the transport (any id but 0, never reused). The channels promise: Control
    /// reliable and ordered; State unreliable (may lose, may drop a message older than one
    /// delivered, never alters); Time unreliable and unordered, delivered as soon as possible.
    /// A message is at most MaxMessageSize bytes and never split or merged. The peer calls these
    /// from its own calls, on their thread; an exception thrown here is rethrown by that call.
    /// Make it a transport with <see cref="Transport.Custom"/>.
    /// </summary>
    public abstract class CustomTransport
    {
        /// <summary>Starts connecting; returns the new connection's id (a Connected or TimedOut event
        /// follows), or 0 when it cannot even start.</summary>
        public abstract uint Connect(Address remote);
        /// <summary>Starts a graceful disconnect; a Disconnected event follows.</summary>
        public abstract void Disconnect(uint connection);
        /// <summary>Queues a message on a channel, with its guarantee: false (nothing sent) for an
        /// unknown connection or more than MaxMessageSize bytes.</summary>
        public abstract bool Send(uint connection, Channel channel, ReadOnlySpan<byte> bytes);
        /// <summary>Sends what is queued, then takes the next event without blocking; false when none.
        /// <paramref name="nowUs"/> is the peer's clock (µs, monotonic).</summary>
        public abstract bool Poll(long nowUs, out TransportEvent transportEvent);
        /// <summary>Sends what is queued now (the peer calls it at the end of every update).</summary>
        public virtual void Flush() { }
        /// <summary>Blocks up to <paramref name="timeoutMs"/> for network activity.</summary>
        public abstract void Wait(int timeoutMs);
        /// <summary>The connection's figures (zeros by default).</summary>
        public virtual LinkStats Stats(uint connection) => default;
        /// <summary>Where this transport is reached: others join it there.</summary>
        public abstract Address LocalAddress { get; }
        /// <summary>Where the connection's other end is.</summary>
        public abstract Address RemoteAddress(uint connection);
        /// <summary>The largest message Send takes (at least 1200 bytes).</summary>
        public abstract int MaxMessageSize { get; }
        /// <summary>A simulated bad network asked for at run time (ignored by default).</summary>
        public virtual void SetConditions(Conditioner conditions) { }
        /// <summary>What the transport itself dropped, by <see cref="DropReason"/> (none by default).</summary>
        public virtual void Drops(Span<ulong> counts) { }
        /// <summary>Called once when the native transport is destroyed (with its peer): the last call.</summary>
        protected virtual void OnDestroyed() { }

        // ---------------------------------------------------------------- the native side
        private GCHandle pinnedPayload;

        internal Transport CreateNative()
        {
            Library.EnsureCompatible();
            GCHandle self = GCHandle.Alloc(this);
            var callbacks = new shoal_transport_callbacks
            {
                struct_size = (uint)Marshal.SizeOf<shoal_transport_callbacks>(),
                user = GCHandle.ToIntPtr(self),
                connect = Thunks.ConnectPointer,
                disconnect = Thunks.DisconnectPointer,
                send = Thunks.SendPointer,
                poll = Thunks.PollPointer,
                flush = Thunks.FlushPointer,
                wait = Thunks.WaitPointer,
                stats = Thunks.StatsPointer,
                local_address = Thunks.LocalAddressPointer,
                remote_address = Thunks.RemoteAddressPointer,
                max_message_size = Thunks.MaxMessageSizePointer,
                set_conditions = Thunks.SetConditionsPointer,
                drops = Thunks.DropsPointer,
                destroy = Thunks.DestroyPointer,
            };
            int status = Native.shoal_transport_create_custom(callbacks, out IntPtr pointer);
            if (status < 0)
            {
                self.Free();  // destroy is not called when creation fails
                throw ShoalException.FromStatus(status);
            }
            return new Transport(pointer);
        }

        private void ReleasePayload()
        {
            if (pinnedPayload.IsAllocated) pinnedPayload.Free();
        }

        private static class Thunks
        {
            private static readonly ConnectFn ConnectFn = Connect;
            private static readonly ConnectionFn DisconnectFn = Disconnect;
            private static readonly SendFn SendFn = Send;
            private static readonly PollFn PollFn = Poll;
            private static readonly UserFn FlushFn = Flush;
            private static readonly WaitFn WaitFn = Wait;
            private static readonly LinkStatsFn StatsFn = Stats;
            private static readonly AddressFn LocalAddressFn = LocalAddress;
            private static readonly RemoteAddressFn RemoteAddressFn = RemoteAddress;
            private static readonly MaxMessageSizeFn MaxMessageSizeFn = MaxMessageSize;
            private static readonly ConditionsFn SetConditionsFn = SetConditions;
            private static readonly DropsFn DropsFn = Drops;
            private static readonly UserFn DestroyFn = Destroy;

            public static readonly IntPtr ConnectPointer = Marshal.GetFunctionPointerForDelegate(ConnectFn);
            public static readonly IntPtr DisconnectPointer = Marshal.GetFunctionPointerForDelegate(DisconnectFn);
            public static readonly IntPtr SendPointer = Marshal.GetFunctionPointerForDelegate(SendFn);
            public static readonly IntPtr PollPointer = Marshal.GetFunctionPointerForDelegate(PollFn);
            public static readonly IntPtr FlushPointer = Marshal.GetFunctionPointerForDelegate(FlushFn);
            public static readonly IntPtr WaitPointer = Marshal.GetFunctionPointerForDelegate(WaitFn);
            public static readonly IntPtr StatsPointer = Marshal.GetFunctionPointerForDelegate(StatsFn);
            public static readonly IntPtr LocalAddressPointer = Marshal.GetFunctionPointerForDelegate(LocalAddressFn);
            public static readonly IntPtr RemoteAddressPointer = Marshal.GetFunctionPointerForDelegate(RemoteAddressFn);
            public static readonly IntPtr MaxMessageSizePointer = Marshal.GetFunctionPointerForDelegate(MaxMessageSizeFn);
            public static readonly IntPtr SetConditionsPointer = Marshal.GetFunctionPointerForDelegate(SetConditionsFn);
            public static readonly IntPtr DropsPointer = Marshal.GetFunctionPointerForDelegate(DropsFn);
            public static readonly IntPtr DestroyPointer = Marshal.GetFunctionPointerForDelegate(DestroyFn);

            private static CustomTransport Of(IntPtr user) => CallbackErrors.Target<CustomTransport>(user);

            [MonoPInvokeCallback(typeof(ConnectFn))]
            private static unsafe uint Connect(IntPtr user, IntPtr remote)
            {
                try { return Of(user).Connect(Address.FromNative(*(shoal_address*)remote)); }
                catch (Exception e) { CallbackErrors.Record(e); return 0; }
            }

            [MonoPInvokeCallback(typeof(ConnectionFn))]
            private static void Disconnect(IntPtr user, uint connection)
            {
                try { Of(user).Disconnect(connection); }
                catch (Exception e) { CallbackErrors.Record(e); }
            }

            [MonoPInvokeCallback(typeof(SendFn))]
            private static unsafe int Send(IntPtr user, uint connection, int channel, IntPtr bytes, uint size)
            {
                try { return Of(user).Send(connection, (Channel)channel, new ReadOnlySpan<byte>((void*)bytes, (int)size)) ? 1 : 0; }
                catch (Exception e) { CallbackErrors.Record(e); return 0; }
            }

            [MonoPInvokeCallback(typeof(PollFn))]
            private static unsafe int Poll(IntPtr user, long nowUs, IntPtr evt)
            {
                try
                {
                    CustomTransport transport = Of(user);
                    transport.ReleasePayload();  // the previous event's bytes are no longer read
                    if (!transport.Poll(nowUs, out TransportEvent e)) return 0;
                    var out_ = (shoal_transport_event*)evt;
                    out_->kind = (int)e.Kind;
                    out_->connection = e.Connection;
                    out_->channel = (int)e.Channel;
                    out_->payload = IntPtr.Zero;
                    out_->size = 0;
                    if (e.Kind == TransportEventKind.Message && e.Payload.Array != null && e.Payload.Count > 0)
                    {
                        transport.pinnedPayload = GCHandle.Alloc(e.Payload.Array, GCHandleType.Pinned);
                        out_->payload = transport.pinnedPayload.AddrOfPinnedObject() + e.Payload.Offset;
                        out_->size = (uint)e.Payload.Count;
                    }
                    return 1;
                }
                catch (Exception e) { CallbackErrors.Record(e); return 0; }
            }

            [MonoPInvokeCallback(typeof(UserFn))]
            private static void Flush(IntPtr user)
            {
                try { Of(user).Flush(); }
                catch (Exception e) { CallbackErrors.Record(e); }
            }

            [MonoPInvokeCallback(typeof(WaitFn))]
            private static void Wait(IntPtr user, int timeoutMs)
            {
                try { Of(user).Wait(timeoutMs); }
                catch (Exception e) { CallbackErrors.Record(e); }
            }

            [MonoPInvokeCallback(typeof(LinkStatsFn))]
            private static unsafe void Stats(IntPtr user, uint connection, IntPtr stats)
            {
                try
                {
                    LinkStats s = Of(user).Stats(connection);
                    *(shoal_link_stats*)stats = new shoal_link_stats
                    {
                        rtt_ms = s.RttMs, rtt_variance_ms = s.RttVarianceMs, packet_loss = s.PacketLoss,
                        packets_out_per_s = s.PacketsOutPerS, packets_in_per_s = s.PacketsInPerS,
                        bytes_out_per_s = s.BytesOutPerS, bytes_in_per_s = s.BytesInPerS,
                    };
                }
                catch (Exception e) { CallbackErrors.Record(e); }
            }

            [MonoPInvokeCallback(typeof(AddressFn))]
            private static unsafe void LocalAddress(IntPtr user, IntPtr address)
            {
                try { *(shoal_address*)address = Of(user).LocalAddress.ToNative("LocalAddress"); }
                catch (Exception e) { CallbackErrors.Record(e); }
            }

            [MonoPInvokeCallback(typeof(RemoteAddressFn))]
            private static unsafe void RemoteAddress(IntPtr user, uint connection, IntPtr address)
            {
                try { *(shoal_address*)address = Of(user).RemoteAddress(connection).ToNative("RemoteAddress"); }
                catch (Exception e) { CallbackErrors.Record(e); }
            }

            [MonoPInvokeCallback(typeof(MaxMessageSizeFn))]
            private static uint MaxMessageSize(IntPtr user)
            {
                try { return (uint)Of(user).MaxMessageSize; }
                catch (Exception e) { CallbackErrors.Record(e); return 0; }
            }

            [MonoPInvokeCallback(typeof(ConditionsFn))]
            private static unsafe void SetConditions(IntPtr user, IntPtr conditions)
            {
                try { Of(user).SetConditions(*(Conditioner*)conditions); }
                catch (Exception e) { CallbackErrors.Record(e); }
            }

            [MonoPInvokeCallback(typeof(DropsFn))]
            private static unsafe void Drops(IntPtr user, IntPtr counts, uint count)
            {
                try { Of(user).Drops(new Span<ulong>((void*)counts, (int)count)); }
                catch (Exception e) { CallbackErrors.Record(e); }
            }

            [MonoPInvokeCallback(typeof(UserFn))]
            private static void Destroy(IntPtr user)
            {
                GCHandle self = GCHandle.FromIntPtr(user);
                var transport = (CustomTransport)self.Target!;
                try
                {
                    transport.ReleasePayload();
                    transport.OnDestroyed();
                }
                catch (Exception e) { CallbackErrors.Record(e); }
                finally { self.Free(); }
            }
        }
    }
}
