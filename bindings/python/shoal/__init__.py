# SPDX-License-Identifier: MIT
"""Shoal from Python: peer-to-peer physics networking over UDP.

The native module ``shoal._shoal`` binds the C++ SDK's API (``sdk/include/shoal``); this package
re-exports it and adds a few conveniences written in Python. See ``docs/python.md``.

    import shoal
    world = shoal.ReferencePhysics()
    world.add_sphere(1, radius=0.5, mass=2, state=shoal.ObjectState(position=(0, 0.5, 0)))
    authority = shoal.SessionAuthority("my-game")
    with shoal.Peer(shoal.PeerConfig(), world, shoal.enet_transport(credentials=authority.invite())) as peer:
        peer.host()
        ...
"""
from __future__ import annotations

from . import _shoal
from ._shoal import *  # noqa: F401,F403  (the API; __all__ below lists it)
from ._shoal import Transport, TransportConfig, Credentials, make_enet_transport
from ._shoal import _bench  # noqa: F401  (C++ reference loops for bindings/python/bench)

__version__: str = _shoal.version()


def enet_transport(config: TransportConfig | None = None, *, credentials: Credentials | None = None,
                   insecure: bool = False, **fields) -> Transport:
    """An ENet transport over UDP: ``config`` (or a default TransportConfig) with any of its fields
    given as keywords (``port=40000``, ``bind_host="0.0.0.0"``, ``conditioner=...``). Links are
    encrypted: give this peer's ``credentials`` (SessionAuthority.invite()), or ``insecure=True``
    to send in the clear."""
    config = TransportConfig(**fields) if config is None else _with_fields(config, fields)
    if credentials is not None:
        config.security.credentials = credentials
    if insecure:
        config.security.enabled = False
    return make_enet_transport(config)


def _with_fields(config: TransportConfig, fields: dict) -> TransportConfig:
    import copy
    config = copy.copy(config)
    for name, value in fields.items():
        if not hasattr(config, name):
            raise TypeError(f"TransportConfig has no field '{name}'")
        setattr(config, name, value)
    return config


__all__ = sorted(name for name in dir(_shoal) if not name.startswith("_")) + ["enet_transport", "__version__"]
