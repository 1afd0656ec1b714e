// SPDX-License-Identifier: MIT
using System;
using Shoal.Interop;

namespace Shoal
{
    /// <summary>The status codes of shoal.h (shoal_error).</summary>
    public enum ErrorCode
    {
        /// <summary>Success.</summary>
        Ok = 0,
        /// <summary>A required handle or pointer was missing.</summary>
        NullArgument = -1,
        /// <summary>A value is out of range (config field, size, port).</summary>
        InvalidArgument = -2,
        /// <summary>The object id is none of the simulation's bodies.</summary>
        UnknownObject = -3,
        /// <summary>Not now: hosting twice, a world already in use.</summary>
        InvalidState = -4,
        /// <summary>The network or system refused (port in use, no socket).</summary>
        Network = -5,
        /// <summary>The frame is no longer (or not yet) in the history.</summary>
        FrameNotHeld = -6,
        /// <summary>An allocation failed.</summary>
        OutOfMemory = -7,
        /// <summary>Anything else; the message says what.</summary>
        Internal = -8,
    }

    /// <summary>
    /// A call into Shoal failed. <see cref="Exception.Message"/> is Shoal's own (shoal_last_error):
    /// the function, what was wrong and what was expected.
    /// </summary>
    public class ShoalException : Exception
    {
        /// <summary>An exception with this code and message.</summary>
        public ShoalException(ErrorCode code, string message) : base(message) { Code = code; }

        /// <summary>Which kind of failure.</summary>
        public ErrorCode Code { get; }

        /// <summary>Throws the failure a native status stands for, with the calling thread's
        /// shoal_last_error(); returns the status when it is not an error.</summary>
        internal static int Check(int status)
        {
            if (status < 0) throw FromStatus(status);
            return status;
        }

        internal static ShoalException FromStatus(int status)
        {
            string message = Text.FromNative(Native.shoal_last_error());
            if (message.Length == 0) message = Text.FromNative(Native.shoal_error_name(status));
            return new ShoalException((ErrorCode)status, message);
        }
    }

    /// <summary>The native library found is not the one this binding was built for; the message
    /// names both versions.</summary>
    public sealed class ShoalVersionException : ShoalException
    {
        internal ShoalVersionException(string message) : base(ErrorCode.InvalidState, message) { }
    }
}
