// SPDX-License-Identifier: MIT
#nullable enable  // as in Unity, where the project does not turn it on
// Strings in and out of the fixed char arrays of the C structs, as UTF-8 with a terminating NUL.
using System;
using System.Runtime.InteropServices;
using System.Text;

namespace Shoal.Interop
{
    internal static unsafe class Text
    {
        /// <summary>The NUL-terminated text at the start of a fixed array of `capacity` bytes.</summary>
        public static string Read(byte* chars, int capacity)
        {
            int length = 0;
            while (length < capacity && chars[length] != 0) ++length;
            return Encoding.UTF8.GetString(chars, length);
        }

        /// <summary>Writes `value` and a NUL into a fixed array, or throws naming `field` when it
        /// does not fit (capacity - 1 bytes of UTF-8 at most).</summary>
        public static void Write(string? value, byte* chars, int capacity, string field)
        {
            value ??= "";
            int bytes = Encoding.UTF8.GetByteCount(value);
            if (bytes >= capacity)
            {
                throw new ArgumentException($"{field} is {bytes} bytes of UTF-8: expected at most {capacity - 1}", field);
            }
            fixed (char* source = value) Encoding.UTF8.GetBytes(source, value.Length, chars, capacity);
            chars[bytes] = 0;
        }

        /// <summary>The NUL-terminated string a native call returned (static or valid until the next call).</summary>
        public static string FromNative(IntPtr text) => text == IntPtr.Zero ? "" : Marshal.PtrToStringUTF8(text) ?? "";

        /// <summary>The NUL-terminated text in a byte array filled by native code.</summary>
        public static string FromBuffer(byte[] buffer)
        {
            int length = Array.IndexOf(buffer, (byte)0);
            return Encoding.UTF8.GetString(buffer, 0, length < 0 ? buffer.Length : length);
        }
    }
}
