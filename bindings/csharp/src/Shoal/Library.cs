// SPDX-License-Identifier: MIT
using System;
using System.Runtime.InteropServices;
using Shoal.Interop;

namespace Shoal
{
    /// <summary>
    /// The native library (libshoal_c) this binding calls, and the check that it is the one the
    /// binding was built for: every type that makes a native object runs it first, once.
    /// </summary>
    public static class Library
    {
        /// <summary>The SHOAL_C_API_VERSION this binding was written against: the library must be
        /// at this version or later.</summary>
        public const int ApiVersion = 15;
        /// <summary>The SHOAL_C_ABI_VERSION this binding was written against: the library's must be
        /// the same.</summary>
        public const int AbiVersion = 3;

        private static volatile bool compatible;
        private static readonly object Gate = new object();

        /// <summary>The library's release, e.g. "0.2.0".</summary>
        public static string Version { get { EnsureCompatible(); return Text.FromNative(Native.shoal_version()); } }

        /// <summary>The wire protocol version the library speaks; peers of others refuse each other.</summary>
        public static int WireVersion { get { EnsureCompatible(); return Native.shoal_wire_version(); } }

        /// <summary>The C API version of the library found.</summary>
        public static int NativeApiVersion { get { EnsureCompatible(); return Native.shoal_c_api_version(); } }

        /// <summary>
        /// Throws <see cref="ShoalVersionException"/> unless the library found speaks this binding's
        /// ABI at this API version or later, with every struct the size this binding lays out.
        /// Runs once; the constructors call it, so calling it is only needed to fail early.
        /// </summary>
        public static void EnsureCompatible()
        {
            if (compatible) return;
            lock (Gate)
            {
                if (compatible) return;
                Check();
                compatible = true;
            }
        }

        private static void Check()
        {
            int api, abi;
            try
            {
                api = Native.shoal_c_api_version();
                abi = Native.shoal_c_abi_version();
            }
            catch (EntryPointNotFoundException)
            {
                throw new ShoalVersionException(
                    $"the {Native.Library} library found has no shoal_c_api_version: it is older than C API 14, and this " +
                    $"binding needs C ABI {AbiVersion}, C API {ApiVersion} or later");
            }
            catch (DllNotFoundException e)
            {
                throw new ShoalException(ErrorCode.Internal,
                    $"the native library {Native.Library} (libshoal_c.so, shoal_c.dll) was not found next to the program, in " +
                    $"the package's runtimes folder or on the library path: {e.Message}");
            }
            if (abi != AbiVersion || api < ApiVersion)
            {
                throw new ShoalVersionException(
                    $"the {Native.Library} library found is C API {api}, ABI {abi}; this binding needs C ABI {AbiVersion}, " +
                    $"C API {ApiVersion} or later: use the libshoal_c built with this binding's release");
            }
            foreach ((string name, int size) in Layouts())
            {
                ulong native = (ulong)Native.shoal_struct_size(name);
                if (native != (ulong)size)
                {
                    throw new ShoalVersionException(
                        $"{name} is {native} bytes in the {Native.Library} library found (C API {api}) but {size} in this " +
                        $"binding (C API {ApiVersion}): the two were built from different shoal.h");
                }
            }
        }

        /// <summary>Every struct this binding lays out itself, with its size here.</summary>
        internal static (string, int)[] Layouts() => new[]
        {
            ("shoal_vec3", Marshal.SizeOf<Vec3>()),
            ("shoal_quat", Marshal.SizeOf<Quat>()),
            ("shoal_object_state", Marshal.SizeOf<ObjectState>()),
            ("shoal_visual_state", Marshal.SizeOf<VisualState>()),
            ("shoal_input", Marshal.SizeOf<Input>()),
            ("shoal_body_input", Marshal.SizeOf<BodyInput>()),
            ("shoal_smoothing_rule", Marshal.SizeOf<SmoothingRule>()),
            ("shoal_smoothing_entry", Marshal.SizeOf<shoal_smoothing_entry>()),
            ("shoal_peer_config", Marshal.SizeOf<shoal_peer_config>()),
            ("shoal_world_config", Marshal.SizeOf<shoal_world_config>()),
            ("shoal_simulation_callbacks", Marshal.SizeOf<shoal_simulation_callbacks>()),
            ("shoal_spawn_callbacks", Marshal.SizeOf<shoal_spawn_callbacks>()),
            ("shoal_link_conditions", Marshal.SizeOf<LinkConditions>()),
            ("shoal_conditioner", Marshal.SizeOf<Conditioner>()),
            ("shoal_address", Marshal.SizeOf<shoal_address>()),
            ("shoal_enet_config", Marshal.SizeOf<shoal_enet_config>()),
            ("shoal_relay_config", Marshal.SizeOf<shoal_relay_config>()),
            ("shoal_relay_session", Marshal.SizeOf<shoal_relay_session>()),
            ("shoal_hybrid_config", Marshal.SizeOf<shoal_hybrid_config>()),
            ("shoal_transport_event", Marshal.SizeOf<shoal_transport_event>()),
            ("shoal_link_stats", Marshal.SizeOf<shoal_link_stats>()),
            ("shoal_transport_callbacks", Marshal.SizeOf<shoal_transport_callbacks>()),
            ("shoal_lan_config", Marshal.SizeOf<shoal_lan_config>()),
            ("shoal_lan_session", Marshal.SizeOf<shoal_lan_session>()),
            ("shoal_lan_stats", Marshal.SizeOf<shoal_lan_stats>()),
            ("shoal_join_progress", Marshal.SizeOf<shoal_join_progress>()),
            ("shoal_event", Marshal.SizeOf<shoal_event>()),
            ("shoal_stats", Marshal.SizeOf<shoal_stats>()),
            ("shoal_game_stats", Marshal.SizeOf<shoal_game_stats>()),
            ("shoal_remote_stats", Marshal.SizeOf<shoal_remote_stats>()),
            ("shoal_spawned_object", Marshal.SizeOf<shoal_spawned_object>()),
            ("shoal_ownership_change", Marshal.SizeOf<shoal_ownership_change>()),
            ("shoal_object_diagnosis", Marshal.SizeOf<shoal_object_diagnosis>()),
            ("shoal_box2d_config", Marshal.SizeOf<shoal_box2d_config>()),
            ("shoal_bullet_config", Marshal.SizeOf<shoal_bullet_config>()),
        };
    }
}
