// SPDX-License-Identifier: MIT
// The structs of shoal.h, shoal_box2d.h and shoal_bullet.h, field for field and named as in C
// so that each can be checked against the header by eye. Internal: the public surface has
// classes and plain structs over these. Library.Check compares every size with the library's
// own (shoal_struct_size) before the first call that uses one.
#pragma warning disable IDE1006, CS0649, CS1591 // C names; fields written by native code
using System;
using System.Runtime.InteropServices;

namespace Shoal.Interop
{
    internal static class Capacity
    {
        public const int Session = 256;
        public const int Host = 256;
        public const int EventMaxObjects = 32;
        public const int Credentials = 512;
        public const int RelayId = 65;
        public const int LanSession = 65;
        public const int MaxSpawnBytes = 64;
        public const int MaxInputBytes = 64;
        public const int OwnershipHistory = 4;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct shoal_smoothing_entry
    {
        public ushort object_type;
        public int control_mode;
        public SmoothingRule rule;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct shoal_peer_config
    {
        public uint struct_size;
        public fixed byte session[Capacity.Session];
        public float tick_hz;
        public int history_frames, max_resimulated_frames, snapshot_interval_frames, checksum_interval_frames;
        public int ping_interval_ms, rejoin_grace_ms, catchup, exact_compare, quantize, bytes_per_second;
        public int freeze_outside_simulated_region, sync_test_frames;
        public Vec3 world_min, world_max;
        public float position_units_per_m, max_linear_speed_mps, max_angular_speed_radps;
        public float core_min_radius_m, core_velocity_horizon_s, simulated_radius_m;
        public SmoothingRule smoothing_default;
        public IntPtr smoothing_rules;
        public int smoothing_rule_count;
        public int velocities_at_rest, delta, orientation_bits;
        public float velocity_units_per_mps;
        public int max_baseline_age_frames, prioritize, packet_budget_bytes;
        public float rest_priority, controlled_priority, came_to_rest_priority, settled_refresh_s;
        public float lod_near_m, lod_far_m, lod_far_factor;
        public int rest_snapshot_interval_frames, input_redundancy, max_clock_catchup_frames;
        public int coasting_interval_frames, input_delay_frames, join_timeout_ms;
        public int max_message_bytes, message_bytes_per_second, messages_per_second, max_queued_messages;
        public IntPtr log_callback, log_user;
        public int log_level, input_bytes;
        public uint max_objects_per_peer;
        public int max_spawns_per_second;
        public uint max_spawn_bytes;
        public IntPtr removed_on_leave;
        public uint removed_on_leave_count;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct shoal_world_config
    {
        public uint struct_size;
        public float dt;
        public Vec3 gravity;
        public float arena_half_x, arena_half_z, restitution, friction, linear_damping, angular_damping;
        public int solver_iterations, allow_sleep;
        public float sleep_linear_speed, sleep_angular_speed;
        public int sleep_frames;
        public float push_acceleration, max_push_speed;
        public int history_frames;
        public float grid_cell_size;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct shoal_simulation_callbacks
    {
        public uint struct_size;
        public IntPtr user, step, body_count, body_id, bounding_radius, read, write, save, restore;
        public IntPtr changed_bodies, set_frozen, body_type, user_bytes_size, read_user_bytes, write_user_bytes;
        public IntPtr step_with_bytes;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct shoal_spawn_callbacks
    {
        public uint struct_size;
        public uint spawn_slot_count;
        public IntPtr add_body, remove_body, add_body_with_bytes, can_spawn;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct shoal_address
    {
        public fixed byte host[Capacity.Host];
        public ushort port;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct shoal_enet_config
    {
        public uint struct_size;
        public fixed byte bind_host[Capacity.Host];
        public ushort port;
        public uint max_connections, timeout_ms;
        public Conditioner conditioner;
        public fixed byte credentials[Capacity.Credentials];
        public int insecure;
        public uint token_grace_ms;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct shoal_relay_config
    {
        public uint struct_size;
        public shoal_address relay;
        public fixed byte session[Capacity.RelayId];
        public fixed byte code[Capacity.RelayId];
        public fixed byte token[Capacity.RelayId];
        public ushort slot;
        public shoal_enet_config local;
        public uint resume_timeout_ms, relay_timeout_ms;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct shoal_relay_session
    {
        public fixed byte session[Capacity.RelayId];
        public fixed byte code[Capacity.RelayId];
        public uint members;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct shoal_hybrid_config
    {
        public uint struct_size;
        public shoal_relay_config relay;
        public shoal_enet_config direct;
        public uint direct_timeout_ms, direct_retry_ms;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct shoal_transport_event
    {
        public int kind;
        public uint connection;
        public int channel;
        public IntPtr payload;
        public uint size;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct shoal_link_stats
    {
        public float rtt_ms, rtt_variance_ms, packet_loss, packets_out_per_s, packets_in_per_s;
        public float bytes_out_per_s, bytes_in_per_s;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct shoal_transport_callbacks
    {
        public uint struct_size;
        public IntPtr user, connect, disconnect, send, poll, flush, wait, stats, local_address, remote_address;
        public IntPtr max_message_size, set_conditions, drops, destroy;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct shoal_lan_config
    {
        public uint struct_size;
        public ushort port;
        public int announce_interval_ms, loopback_only;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct shoal_lan_session
    {
        public fixed byte session[Capacity.LanSession];
        public shoal_address address;
        public byte protocol_version;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct shoal_lan_stats
    {
        public ulong sent, received, other_sessions, dropped;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct shoal_join_progress
    {
        public int step, done, needed;
        public long elapsed_ms;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct shoal_event
    {
        public int kind;
        public ushort peer;
        public uint @object;
        public int frame, depth;
        public uint object_count;
        public int objects_truncated;
        public fixed uint objects[Capacity.EventMaxObjects];
        public int join_step, join_failure;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct shoal_stats
    {
        public int frame;
        public uint remote_count;
        public ulong overrides, catchup_frames, snaps, ownership_changes, snapshots_sent, snapshots_received;
        public ulong snapshot_bytes_sent, baseline_misses, quantization_clamps, desyncs, owned_objects;
        public ulong frozen_objects, dropped_packets;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct shoal_game_stats
    {
        public ulong objects_spawned, objects_removed, messages_sent, messages_received, messages_queued;
        public ulong rest_repairs_requested;
        public float pace;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct shoal_remote_stats
    {
        public ushort peer;
        public float rtt_ms, rtt_variance_ms, packet_loss, packets_out_per_s, packets_in_per_s;
        public float bytes_out_per_s, bytes_in_per_s;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct shoal_spawned_object
    {
        public uint @object;
        public ushort type, spawner, owner;
        public int frame;
        public uint byte_count;
        public fixed byte bytes[Capacity.MaxSpawnBytes];
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct shoal_ownership_change
    {
        public int frame;
        public ushort owner, author;
        public uint sequence;
        public int applied_at;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct shoal_object_diagnosis
    {
        public uint @object;
        public int frame, held, confirmed;
        public ObjectState state;
        public ushort owner;
        public int frozen;
        public uint ownership_count;
        // shoal_ownership_change ownership[Capacity.OwnershipHistory]: C# has fixed buffers of
        // primitive types only, so the four entries are fields in a row (the same layout).
        public shoal_ownership_change ownership0, ownership1, ownership2, ownership3;
        public int last_owner_frame, last_owner_frame_at;
        public ulong overrides;
        public int owner_said, owner_said_frame;
        public ObjectState owner_said_state;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct shoal_box2d_config
    {
        public uint struct_size;
        public float gravity_x, gravity_y, dt;
        public int velocity_iterations, position_iterations;
        public float push_acceleration, max_push_speed, friction, restitution, linear_damping, angular_damping;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct shoal_bullet_config
    {
        public uint struct_size;
        public Vec3 gravity;
        public float dt, push_acceleration, max_push_speed, friction, restitution, linear_damping, angular_damping;
    }
}
