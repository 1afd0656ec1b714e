// SPDX-License-Identifier: MIT
#nullable enable  // as in Unity, where the project does not turn it on
// Every function of shoal.h, shoal_box2d.h and shoal_bullet.h, named as in C (a test compares
// this list with the headers). Handles cross as SafeHandles, structs by reference, strings as
// UTF-8; nothing here allocates on the managed heap for a call that succeeds.
#pragma warning disable IDE1006, CS1591 // C names
using System;
using System.Runtime.InteropServices;

namespace Shoal.Interop
{
    internal static class Native
    {
        /// <summary>libshoal_c.so on Linux, shoal_c.dll on Windows, libshoal_c.dylib on macOS.</summary>
        public const string Library = "shoal_c";
        private const CallingConvention Cdecl = CallingConvention.Cdecl;

        // ------------------------------------------------------------ library
        [DllImport(Library, CallingConvention = Cdecl)] public static extern IntPtr shoal_version();
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_wire_version();
        [DllImport(Library, CallingConvention = Cdecl)] public static extern IntPtr shoal_last_error();
        [DllImport(Library, CallingConvention = Cdecl)] public static extern IntPtr shoal_error_name(int status);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_c_api_version();
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_c_abi_version();
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern UIntPtr shoal_struct_size([MarshalAs(UnmanagedType.LPUTF8Str)] string name);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_object_state_default(out ObjectState state);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_smoothing_rule_default(out SmoothingRule rule);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_peer_config_default(out shoal_peer_config config);

        // ------------------------------------------------------------ reference physics
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_world_config_default(out shoal_world_config config);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_world_create(in shoal_world_config config, out IntPtr world);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_world_destroy(IntPtr world);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_world_add_sphere(WorldHandle world, uint @object, float radius, float mass, in ObjectState initial);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_world_add_box(WorldHandle world, uint @object, float half_x, float half_y, float half_z,
                                                     float mass, in ObjectState initial);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_world_set_spawn_sphere(WorldHandle world, ushort type, float radius, float mass);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_world_set_spawn_box(WorldHandle world, ushort type, float half_x, float half_y, float half_z, float mass);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_world_add_spawn_slots(WorldHandle world, uint count);

        // ------------------------------------------------------------ a game's simulation
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_simulation_create(in shoal_simulation_callbacks callbacks, out IntPtr simulation);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_simulation_set_spawning(SimulationHandle simulation, in shoal_spawn_callbacks callbacks);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_simulation_destroy(IntPtr simulation);

        // ------------------------------------------------------------ transports
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_link_conditions_default(out LinkConditions conditions);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_enet_config_default(out shoal_enet_config config);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_transport_create_enet(in shoal_enet_config config, out IntPtr transport);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_transport_destroy(IntPtr transport);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_authority_create([MarshalAs(UnmanagedType.LPUTF8Str)] string session, out IntPtr authority);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_authority_destroy(IntPtr authority);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_authority_invite(AuthorityHandle authority, long validity_s, byte[] out_credentials);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_transport_secure(TransportHandle transport, [MarshalAs(UnmanagedType.LPUTF8Str)] string credentials,
                                                        uint token_grace_ms);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_relay_config_default(out shoal_relay_config config);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_transport_create_relay(in shoal_relay_config config, out IntPtr transport);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_relay_session_code([MarshalAs(UnmanagedType.LPUTF8Str)] string session, byte[] out_code);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_relay_list_sessions(in shoal_address relay, int timeout_ms, [Out] shoal_relay_session[]? out_sessions,
                                                           uint capacity, out uint count);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_hybrid_config_default(out shoal_hybrid_config config);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_transport_create_hybrid(in shoal_hybrid_config config, out IntPtr transport);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_hybrid_address(in shoal_address direct, ushort relay_slot, out shoal_address address);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_memory_network_create(ulong seed, out IntPtr network);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_memory_network_destroy(IntPtr network);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_memory_network_set_time_us(MemoryNetworkHandle network, long now_us);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_memory_network_set_conditions(MemoryNetworkHandle network, in LinkConditions conditions);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_memory_network_create_endpoint(MemoryNetworkHandle network, ushort port, uint timeout_ms,
                                                                      out IntPtr transport);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_transport_create_custom(in shoal_transport_callbacks callbacks, out IntPtr transport);

        // ------------------------------------------------------------ LAN discovery
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_lan_config_default(out shoal_lan_config config);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_lan_announcer_create(in shoal_lan_config config, [MarshalAs(UnmanagedType.LPUTF8Str)] string session,
                                                            in shoal_address address, out IntPtr announcer);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_lan_announcer_update(LanAnnouncerHandle announcer);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_lan_announcer_stats(LanAnnouncerHandle announcer, out shoal_lan_stats stats);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_lan_announcer_destroy(IntPtr announcer);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_lan_seeker_create(in shoal_lan_config config, out IntPtr seeker);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_lan_seeker_poll(LanSeekerHandle seeker, [MarshalAs(UnmanagedType.LPUTF8Str)] string session,
                                                       out shoal_lan_session found_session, out int found);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_lan_seeker_find(LanSeekerHandle seeker, [MarshalAs(UnmanagedType.LPUTF8Str)] string session,
                                                       int timeout_ms, out shoal_lan_session found_session, out int found);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_lan_seeker_stats(LanSeekerHandle seeker, out shoal_lan_stats stats);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_lan_seeker_destroy(IntPtr seeker);

        // ------------------------------------------------------------ peer
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_peer_create_with_world(in shoal_peer_config config, WorldHandle world, IntPtr transport, out IntPtr peer);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_peer_create_with_simulation(in shoal_peer_config config, SimulationHandle simulation, IntPtr transport,
                                                                   out IntPtr peer);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_peer_destroy(IntPtr peer);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_peer_host(PeerHandle peer);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_peer_record(PeerHandle peer, [MarshalAs(UnmanagedType.LPUTF8Str)] string path, byte[]? world, UIntPtr world_size);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_peer_join(PeerHandle peer, [MarshalAs(UnmanagedType.LPUTF8Str)] string host, ushort port);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_peer_leave(PeerHandle peer);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_peer_set_controlled(PeerHandle peer, uint @object);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_peer_set_input(PeerHandle peer, in Input input);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_peer_set_input_bytes(PeerHandle peer, in byte bytes, uint size);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_peer_update(PeerHandle peer);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_peer_update_at(PeerHandle peer, long now_us);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_peer_wait(PeerHandle peer, int timeout_ms);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_peer_poll_event(PeerHandle peer, out shoal_event evt);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern IntPtr shoal_peer_event_reason(PeerHandle peer);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_peer_send_message(PeerHandle peer, ushort to, in byte bytes, UIntPtr size, int delivery, int frame);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_peer_event_message(PeerHandle peer, out IntPtr bytes, out UIntPtr size, out int reliable);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_peer_set_conditions(PeerHandle peer, in Conditioner conditions);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_peer_in_match(PeerHandle peer, out int in_match);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_peer_join_progress(PeerHandle peer, out shoal_join_progress progress);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_peer_id(PeerHandle peer, out ushort id);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_peer_frame(PeerHandle peer, out int frame);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_peer_peers(PeerHandle peer, ref ushort ids, uint capacity, out uint count);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_peer_state(PeerHandle peer, uint @object, out ObjectState state);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_peer_state_at(PeerHandle peer, uint @object, int frame, out ObjectState state);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_peer_visual(PeerHandle peer, uint @object, out VisualState visual);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_peer_visuals(PeerHandle peer, ref VisualState visuals, uint capacity, out uint count);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_peer_objects(PeerHandle peer, ref uint ids, uint capacity, out uint count);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_peer_owner(PeerHandle peer, uint @object, out ushort owner);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_peer_diagnose(PeerHandle peer, uint @object, int frame, out shoal_object_diagnosis diagnosis);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_peer_address(PeerHandle peer, out shoal_address address);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_peer_spawn(PeerHandle peer, ushort type, in ObjectState state, in byte bytes, uint size, out uint @object);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_peer_remove(PeerHandle peer, uint @object);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_peer_spawned_objects(PeerHandle peer, ref uint ids, uint capacity, out uint count);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_peer_spawned_object(PeerHandle peer, uint @object, out shoal_spawned_object spawned);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_peer_stats(PeerHandle peer, out shoal_stats stats);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_peer_game_stats(PeerHandle peer, out shoal_game_stats stats);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_peer_drops(PeerHandle peer, ref ulong counts, uint count);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_peer_remote_stats(PeerHandle peer, uint index, out shoal_remote_stats stats);

        // ------------------------------------------------------------ Box2D (shoal_box2d.h)
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_box2d_config_default(out shoal_box2d_config config);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_box2d_world_create(in shoal_box2d_config config, out IntPtr world);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_box2d_world_destroy(IntPtr world);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_box2d_world_add_wall(Box2dWorldHandle world, float center_x, float center_y, float half_x, float half_y);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_box2d_world_add_disc(Box2dWorldHandle world, uint @object, float radius, float density, in ObjectState initial);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_box2d_world_add_box(Box2dWorldHandle world, uint @object, float half_x, float half_y, float density,
                                                           in ObjectState initial);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_box2d_world_callbacks(Box2dWorldHandle world, out shoal_simulation_callbacks callbacks);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_box2d_world_set_spawn_disc(Box2dWorldHandle world, ushort type, float radius, float density);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_box2d_world_set_spawn_box(Box2dWorldHandle world, ushort type, float half_x, float half_y, float density);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_box2d_world_add_spawn_slots(Box2dWorldHandle world, uint count);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_box2d_world_spawn_callbacks(Box2dWorldHandle world, out shoal_spawn_callbacks callbacks);

        // ------------------------------------------------------------ Bullet (shoal_bullet.h)
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_bullet_config_default(out shoal_bullet_config config);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_bullet_world_create(in shoal_bullet_config config, out IntPtr world);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_bullet_world_destroy(IntPtr world);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_bullet_world_add_plane(BulletWorldHandle world, Vec3 normal, float offset);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_bullet_world_add_sphere(BulletWorldHandle world, uint @object, float radius, float mass, in ObjectState initial);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_bullet_world_add_box(BulletWorldHandle world, uint @object, Vec3 half_extents, float mass, in ObjectState initial);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_bullet_world_callbacks(BulletWorldHandle world, out shoal_simulation_callbacks callbacks);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_bullet_world_set_spawn_sphere(BulletWorldHandle world, ushort type, float radius, float mass);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_bullet_world_set_spawn_box(BulletWorldHandle world, ushort type, Vec3 half_extents, float mass);
        [DllImport(Library, CallingConvention = Cdecl)] public static extern int shoal_bullet_world_add_spawn_slots(BulletWorldHandle world, uint count);
        [DllImport(Library, CallingConvention = Cdecl)]
        public static extern int shoal_bullet_world_spawn_callbacks(BulletWorldHandle world, out shoal_spawn_callbacks callbacks);
    }
}
