// SPDX-License-Identifier: MIT
#nullable enable  // as in Unity, where the project does not turn it on
// The function pointer types of shoal.h's callbacks, and where an exception thrown by the game's
// code inside one waits: it must not unwind through native frames, so the callback stores it
// and the binding rethrows it once the native call that led there has returned.
#pragma warning disable CS1591
using System;
using System.Runtime.ExceptionServices;
using System.Runtime.InteropServices;

namespace Shoal.Interop
{
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate void StepWithBytesFn(IntPtr user, int frame, IntPtr inputs, IntPtr inputBytes, uint count);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate uint BodyCountFn(IntPtr user);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate uint BodyIdFn(IntPtr user, uint body);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate float BoundingRadiusFn(IntPtr user, uint body);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate void ReadStateFn(IntPtr user, uint body, IntPtr state);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate void WriteStateFn(IntPtr user, uint body, IntPtr state);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate void FrameFn(IntPtr user, int frame);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate void SetFrozenFn(IntPtr user, uint body, int frozen);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate ushort BodyTypeFn(IntPtr user, uint body);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate uint UserBytesSizeFn(IntPtr user, ushort type);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate void UserBytesFn(IntPtr user, uint body, IntPtr bytes, uint size);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate void AddBodyFn(IntPtr user, uint body, ushort type, IntPtr state, IntPtr bytes, uint size);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate void BodyFn(IntPtr user, uint body);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate int CanSpawnFn(IntPtr user, ushort type);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate void LogFn(IntPtr user, int level, IntPtr text);

    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate uint ConnectFn(IntPtr user, IntPtr remote);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate void ConnectionFn(IntPtr user, uint connection);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate int SendFn(IntPtr user, uint connection, int channel, IntPtr bytes, uint size);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate int PollFn(IntPtr user, long nowUs, IntPtr evt);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate void UserFn(IntPtr user);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate void WaitFn(IntPtr user, int timeoutMs);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate void LinkStatsFn(IntPtr user, uint connection, IntPtr stats);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate void AddressFn(IntPtr user, IntPtr address);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate void RemoteAddressFn(IntPtr user, uint connection, IntPtr address);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate uint MaxMessageSizeFn(IntPtr user);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate void ConditionsFn(IntPtr user, IntPtr conditions);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] internal delegate void DropsFn(IntPtr user, IntPtr counts, uint count);

    internal static class CallbackErrors
    {
        [ThreadStatic] private static ExceptionDispatchInfo? pending;

        /// <summary>Keeps the first exception a callback threw on this thread.</summary>
        public static void Record(Exception e)
        {
            if (pending == null) pending = ExceptionDispatchInfo.Capture(e);
        }

        /// <summary>Rethrows what a callback threw during the native call that just returned.</summary>
        public static void Rethrow()
        {
            ExceptionDispatchInfo? e = pending;
            if (e == null) return;
            pending = null;
            e.Throw();
        }

        /// <summary>The object a callback's user pointer (a GCHandle) stands for.</summary>
        public static T Target<T>(IntPtr user) where T : class => (T)GCHandle.FromIntPtr(user).Target!;
    }
}
