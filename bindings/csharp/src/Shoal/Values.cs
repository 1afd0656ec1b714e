// SPDX-License-Identifier: MIT
#nullable enable  // as in Unity, where the project does not turn it on
// The plain values of shoal.h, laid out exactly as in C so that they cross P/Invoke as they are
// (a span of them is read or written by native code without a copy).
using System.Runtime.InteropServices;

namespace Shoal
{
    /// <summary>A vector in metres (or m/s, rad/s); y is up.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Vec3
    {
        /// <summary>First component.</summary>
        public float X;
        /// <summary>Second component (up).</summary>
        public float Y;
        /// <summary>Third component.</summary>
        public float Z;

        /// <summary>A vector of these components.</summary>
        public Vec3(float x, float y, float z) { X = x; Y = y; Z = z; }

        /// <inheritdoc/>
        public override string ToString() => $"({X}, {Y}, {Z})";
    }

    /// <summary>A unit quaternion w + xi + yj + zk; <see cref="Identity"/> is no rotation.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Quat
    {
        /// <summary>Real part.</summary>
        public float W;
        /// <summary>i component.</summary>
        public float X;
        /// <summary>j component.</summary>
        public float Y;
        /// <summary>k component.</summary>
        public float Z;

        /// <summary>A quaternion of these components.</summary>
        public Quat(float w, float x, float y, float z) { W = w; X = x; Y = y; Z = z; }

        /// <summary>No rotation.</summary>
        public static Quat Identity => new Quat(1, 0, 0, 0);
    }

    /// <summary>The simulated state of one object at one frame.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct ObjectState
    {
        /// <summary>Position, m.</summary>
        public Vec3 Position;
        /// <summary>Orientation, a unit quaternion.</summary>
        public Quat Orientation;
        /// <summary>m/s.</summary>
        public Vec3 LinearVelocity;
        /// <summary>rad/s, world frame.</summary>
        public Vec3 AngularVelocity;
        private int atRest;

        /// <summary>Asleep (velocities zero).</summary>
        public bool AtRest { get => atRest != 0; set => atRest = value ? 1 : 0; }

        /// <summary>The C++ default: at the origin, no rotation, still, awake.</summary>
        public static ObjectState Default => new ObjectState { Orientation = Quat.Identity };

        /// <summary>The default state moved to (x, y, z).</summary>
        public static ObjectState At(float x, float y, float z) =>
            new ObjectState { Position = new Vec3(x, y, z), Orientation = Quat.Identity };
    }

    /// <summary>What to draw for an object: its smoothed, render-interpolated pose.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct VisualState
    {
        /// <summary>Position, m.</summary>
        public Vec3 Position;
        /// <summary>Orientation, a unit quaternion.</summary>
        public Quat Orientation;
    }

    /// <summary>One frame of the local player's input; its meaning is the game's.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Input
    {
        /// <summary>The reference physics pushes along x and z, each in [-1, 1].</summary>
        public Vec3 Axis;
        /// <summary>Game-defined bits, ignored by the reference physics.</summary>
        public uint Buttons;

        /// <summary>An input pushing along this axis.</summary>
        public Input(float x, float y, float z, uint buttons = 0) { Axis = new Vec3(x, y, z); Buttons = buttons; }
    }

    /// <summary>The input of one controlled body for the frame being stepped.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct BodyInput
    {
        /// <summary>Body index, 0..BodyCount-1.</summary>
        public uint Body;
        /// <summary>That body's input.</summary>
        public Input Input;
    }
}
