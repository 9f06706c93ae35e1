"""Runs a Steergraph scene through the C interface with nothing but Python's standard
library (ctypes), and writes the same CSV as `steergraph simulate`, byte for byte.

    python3 simulate.py SCENE TICKS DT OUT [SEED]

The library is found through $STEERGRAPH_LIB (a path to libsteergraph.so, .dylib or
steergraph.dll), else beside this repository's target/release or target/debug.
"""

import ctypes
import os
import sys
from pathlib import Path

OK = 0


class Handle(ctypes.Structure):
    """Every Sg* handle: a struct of one uint64_t."""

    _fields_ = [("id", ctypes.c_uint64)]


class AgentArrays(ctypes.Structure):
    """SgAgentArrays: where sg_simulation_read writes; NULL pointers are not wanted."""

    _fields_ = [
        ("capacity", ctypes.c_size_t),
        ("position", ctypes.POINTER(ctypes.c_float)),
        ("velocity", ctypes.POINTER(ctypes.c_float)),
        ("angle", ctypes.POINTER(ctypes.c_float)),
        ("angular_velocity", ctypes.POINTER(ctypes.c_float)),
        ("height", ctypes.POINTER(ctypes.c_float)),
        ("airborne", ctypes.POINTER(ctypes.c_uint8)),
        ("tags", ctypes.POINTER(ctypes.c_uint64)),
        ("group", ctypes.POINTER(ctypes.c_uint32)),
    ]


def find_library():
    if "STEERGRAPH_LIB" in os.environ:
        return os.environ["STEERGRAPH_LIB"]
    names = {"win32": "steergraph.dll", "darwin": "libsteergraph.dylib"}
    name = names.get(sys.platform, "libsteergraph.so")
    root = Path(__file__).resolve().parents[3]
    for profile in ("release", "debug"):
        candidate = root / "target" / profile / name
        if candidate.exists():
            return str(candidate)
    sys.exit(f"{name} not found: build it with `cargo build --release -p steergraph-c` or set STEERGRAPH_LIB")


def load(path):
    lib = ctypes.CDLL(path)
    size_p = ctypes.POINTER(ctypes.c_size_t)
    signatures = {
        "sg_last_error": [ctypes.c_char_p, ctypes.c_size_t, size_p],
        "sg_format_f32": [ctypes.c_float, ctypes.c_char_p, ctypes.c_size_t, size_p],
        "sg_scene_load": [ctypes.c_char_p, ctypes.POINTER(Handle)],
        "sg_scene_free": [Handle],
        "sg_simulation_create": [Handle, ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(Handle)],
        "sg_simulation_step": [Handle, ctypes.c_float],
        "sg_simulation_agent_count": [Handle, size_p],
        "sg_simulation_tick": [Handle, ctypes.POINTER(ctypes.c_uint64)],
        "sg_simulation_uses_facing": [Handle, ctypes.POINTER(ctypes.c_bool)],
        "sg_simulation_read": [Handle, ctypes.POINTER(AgentArrays)],
        "sg_simulation_free": [Handle],
    }
    for name, arguments in signatures.items():
        function = getattr(lib, name)
        function.argtypes = arguments
        function.restype = ctypes.c_int  # SgStatus
    return lib


class Steergraph:
    def __init__(self, lib):
        self.lib = lib
        self.text = ctypes.create_string_buffer(64)
        self.length = ctypes.c_size_t()

    def check(self, status):
        """Raises the library's message when a call failed."""
        if status != OK:
            buffer = ctypes.create_string_buffer(4096)
            self.lib.sg_last_error(buffer, len(buffer), ctypes.byref(self.length))
            raise RuntimeError(buffer.value.decode("utf-8", "replace"))

    def float_text(self, value):
        """The CSV's text for a float: shortest round trip of the 32-bit value."""
        self.lib.sg_format_f32(value, self.text, len(self.text), ctypes.byref(self.length))
        return self.text.value.decode("ascii")


def main(argv):
    if len(argv) not in (5, 6):
        sys.exit("usage: simulate.py SCENE TICKS DT OUT [SEED]")
    scene_path, ticks, dt, out_path = argv[1], int(argv[2]), float(argv[3]), argv[4]
    sg = Steergraph(load(find_library()))
    lib = sg.lib

    scene = Handle()
    sg.check(lib.sg_scene_load(os.fsencode(scene_path), ctypes.byref(scene)))
    simulation = Handle()
    seed = ctypes.byref(ctypes.c_uint64(int(argv[5]))) if len(argv) == 6 else None
    try:
        sg.check(lib.sg_simulation_create(scene, seed, ctypes.byref(simulation)))
    finally:
        sg.check(lib.sg_scene_free(scene))
    try:
        count, facing = ctypes.c_size_t(), ctypes.c_bool()
        sg.check(lib.sg_simulation_agent_count(simulation, ctypes.byref(count)))
        sg.check(lib.sg_simulation_uses_facing(simulation, ctypes.byref(facing)))
        n = count.value
        position, velocity = (ctypes.c_float * (2 * n))(), (ctypes.c_float * (2 * n))()
        angle, spin, height = (ctypes.c_float * n)(), (ctypes.c_float * n)(), (ctypes.c_float * n)()
        airborne = (ctypes.c_uint8 * n)()
        arrays = AgentArrays(capacity=n, position=position, velocity=velocity)
        if facing.value:
            arrays.angle, arrays.angular_velocity = angle, spin
            arrays.height, arrays.airborne = height, airborne
        tick = ctypes.c_uint64()
        f = sg.float_text
        with open(out_path, "w", newline="\n", encoding="ascii") as out:
            if facing.value:
                out.write("tick,agent,x,y,vx,vy,angle,angular_velocity,height\n")
            else:
                out.write("tick,agent,x,y,vx,vy\n")
            for step in range(ticks + 1):
                if step > 0:
                    sg.check(lib.sg_simulation_step(simulation, dt))
                sg.check(lib.sg_simulation_tick(simulation, ctypes.byref(tick)))
                sg.check(lib.sg_simulation_read(simulation, ctypes.byref(arrays)))
                rows = []
                for i in range(n):
                    row = f"{tick.value},{i},{f(position[2 * i])},{f(position[2 * i + 1])},{f(velocity[2 * i])},{f(velocity[2 * i + 1])}"
                    if facing.value:
                        row += f",{f(angle[i])},{f(spin[i])},{f(height[i]) if airborne[i] else ''}"
                    rows.append(row + "\n")
                out.write("".join(rows))
    finally:
        sg.check(lib.sg_simulation_free(simulation))


if __name__ == "__main__":
    main(sys.argv)
