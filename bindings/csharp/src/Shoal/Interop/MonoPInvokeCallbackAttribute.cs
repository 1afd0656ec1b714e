// SPDX-License-Identifier: MIT
using System;

namespace Shoal.Interop
{
    /// <summary>
    /// Marks a static method that native code calls through a function pointer. Unity's IL2CPP
    /// compiles such methods into native entry points when they carry an attribute of this name
    /// (it matches the name, not the assembly): every callback of the binding is a static method
    /// marked so, reaching its object through the <c>user</c> pointer (a GCHandle), capturing nothing.
    /// </summary>
    [AttributeUsage(AttributeTargets.Method)]
    internal sealed class MonoPInvokeCallbackAttribute : Attribute
    {
        public MonoPInvokeCallbackAttribute(Type delegateType) { DelegateType = delegateType; }
        public Type DelegateType { get; }
    }
}
