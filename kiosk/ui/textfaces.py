"""Kivy's SDL2 text provider drawing every size of a font from ONE open face per font file.

Why (measured, docs/look.md "Memory"): Kivy's SDL2 provider opens a face per font size (``TTF_OpenFont`` at
``int(font_size)``), and every open face keeps its own FreeType tables: about 0.26 MB for a size of Inter and 2.2 MB
for a size of Noto Sans CJK (a 65,000-glyph CFF font). The table sets text in some 40 sizes (a type scale times
the window's unit, fitted text a step smaller), and Japanese at a seat alone opened 13 sizes of the CJK face in one
attract cycle. SDL2_ttf can change an open face's size (``TTF_SetFontSize``, SDL2_ttf 2.0.18 and later), which
Kivy does not use: :func:`install` makes Kivy's provider measure and draw through one face per file (per weight),
set to each text's size as it is used, with the same SDL2_ttf calls Kivy makes (hinting, kerning, outline, style,
blended or solid), so every text is drawn pixel for pixel as before (tests/test_textfaces.py compares them).

It calls the SDL2 and SDL2_ttf libraries Kivy itself loaded (found in the process's memory map). Where they
cannot be found or lack ``TTF_SetFontSize``, Kivy's provider is left as it is (a face per whole pixel size:
:func:`kiosk.ui.typescale.share_fonts_by_pixel_size`).
"""

from __future__ import annotations

import ctypes
import logging
from pathlib import Path
from typing import Any

log = logging.getLogger("kiosk.ui.textfaces")

__all__ = ["install", "installed", "open_faces", "uninstall"]

_HINTING = {"normal": 0, "light": 1, "mono": 2, None: 3}  # TTF_HINTING_*
_DIRECTION = {"ltr": 0, "rtl": 1, "ttb": 2, "btt": 3}  # TTF_DIRECTION_*
_STYLE_UNDERLINE, _STYLE_STRIKETHROUGH = 0x04, 0x08
_BLEND_NONE, _BLEND_BLEND = 0, 1


class _Color(ctypes.Structure):
    _fields_ = [("r", ctypes.c_uint8), ("g", ctypes.c_uint8), ("b", ctypes.c_uint8), ("a", ctypes.c_uint8)]


class _Rect(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int), ("w", ctypes.c_int), ("h", ctypes.c_int)]


class _Surface(ctypes.Structure):  # the leading fields of SDL_Surface (SDL 2.x)
    _fields_ = [
        ("flags", ctypes.c_uint32),
        ("format", ctypes.c_void_p),
        ("w", ctypes.c_int),
        ("h", ctypes.c_int),
        ("pitch", ctypes.c_int),
        ("pixels", ctypes.c_void_p),
    ]


_SurfaceP = ctypes.POINTER(_Surface)


def _loaded(prefix: str, beside: str | None = None) -> str | None:
    """The path of the loaded shared library whose file name starts with ``prefix`` (Kivy's own copy): the one in
    the folder of ``beside`` when more than one is loaded (SDL2_ttf's own SDL2)."""
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        return None
    found: list[str] = []
    for line in maps.splitlines():
        fields = line.split(maxsplit=5)  # address, permissions, offset, device, inode, path (when a file)
        if len(fields) == 6 and Path(fields[5]).name.startswith(prefix) and fields[5] not in found:
            found.append(fields[5])
    near = [p for p in found if beside is not None and Path(p).parent == Path(beside).parent]
    return next(iter(near + found), None)


class _Lib:
    """The SDL2 and SDL2_ttf calls Kivy's provider makes, plus ``TTF_SetFontSize``."""

    def __init__(self, sdl: ctypes.CDLL, ttf: ctypes.CDLL) -> None:
        vp, i, c = ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p
        sig = {
            (ttf, "TTF_WasInit"): (i, []),
            (ttf, "TTF_Init"): (i, []),
            (ttf, "TTF_OpenFont"): (vp, [c, i]),
            (ttf, "TTF_SetFontSize"): (i, [vp, i]),
            (ttf, "TTF_GetFontStyle"): (i, [vp]),
            (ttf, "TTF_SetFontStyle"): (None, [vp, i]),
            (ttf, "TTF_GetFontHinting"): (i, [vp]),
            (ttf, "TTF_SetFontHinting"): (None, [vp, i]),
            (ttf, "TTF_GetFontKerning"): (i, [vp]),
            (ttf, "TTF_SetFontKerning"): (None, [vp, i]),
            (ttf, "TTF_SetFontOutline"): (None, [vp, i]),
            (ttf, "TTF_SetFontDirection"): (i, [vp, i]),
            (ttf, "TTF_SetFontScriptName"): (i, [vp, c]),
            (ttf, "TTF_SizeUTF8"): (i, [vp, c, ctypes.POINTER(i), ctypes.POINTER(i)]),
            (ttf, "TTF_FontAscent"): (i, [vp]),
            (ttf, "TTF_FontDescent"): (i, [vp]),
            (ttf, "TTF_RenderUTF8_Blended"): (_SurfaceP, [vp, c, _Color]),
            (ttf, "TTF_RenderUTF8_Solid"): (_SurfaceP, [vp, c, _Color]),
            (sdl, "SDL_GetError"): (c, []),
            (sdl, "SDL_CreateRGBSurface"): (_SurfaceP, [ctypes.c_uint32, i, i, i] + [ctypes.c_uint32] * 4),
            (sdl, "SDL_FreeSurface"): (None, [_SurfaceP]),
            (sdl, "SDL_UpperBlit"): (i, [_SurfaceP, ctypes.POINTER(_Rect), _SurfaceP, ctypes.POINTER(_Rect)]),
            (sdl, "SDL_SetSurfaceAlphaMod"): (i, [_SurfaceP, ctypes.c_uint8]),
            (sdl, "SDL_SetSurfaceBlendMode"): (i, [_SurfaceP, i]),
        }
        for (lib, name), (restype, argtypes) in sig.items():
            fn = getattr(lib, name)  # AttributeError: this SDL2_ttf lacks it
            fn.restype, fn.argtypes = restype, argtypes
            setattr(self, name, fn)

    def __getattr__(self, name: str) -> Any:  # for mypy: the functions are set in __init__
        raise AttributeError(name)


class _Face:
    """One open SDL2_ttf font and the settings it is in now (each changed only when a text asks otherwise)."""

    __slots__ = ("font", "size", "style", "direction", "script")

    def __init__(self, font: int, size: int) -> None:
        self.font, self.size, self.style = font, size, 0
        self.direction, self.script = "", ""


class _Faces:
    """Every font file's one open face, keyed by the file (Kivy resolves a weight to its own file)."""

    def __init__(self, lib: _Lib) -> None:
        self.lib = lib
        self.faces: dict[str, _Face] = {}

    def font(self, options: dict[str, Any]) -> int:
        """The open face for a text's options, set to its size, style, direction and script."""
        lib = self.lib
        path, size = options["font_name_r"], int(options["font_size"])
        face = self.faces.get(path)
        if face is None:
            if not lib.TTF_WasInit():
                lib.TTF_Init()
            font = lib.TTF_OpenFont(path.encode("utf-8"), size)
            if not font:
                raise OSError(f"cannot open the font {path}: {lib.SDL_GetError().decode(errors='replace')}")
            face = self.faces[path] = _Face(font, size)
        elif face.size != size and lib.TTF_SetFontSize(face.font, size) == 0:  # a size it refuses: as it was
            face.size = size
        style = (_STYLE_UNDERLINE if options["underline"] else 0) | (
            _STYLE_STRIKETHROUGH if options["strikethrough"] else 0
        )
        if face.style != style:
            lib.TTF_SetFontStyle(face.font, style)
            face.style = style
        direction, script = options.get("font_direction") or "ltr", options.get("font_script_name") or ""
        if face.direction != direction:
            lib.TTF_SetFontDirection(face.font, _DIRECTION.get(direction, 0))
            face.direction = direction
        if face.script != script:
            lib.TTF_SetFontScriptName(face.font, script.encode("utf-8"))  # fails (ignored) unless 4 letters, as Kivy's
            face.script = script
        return int(face.font)


_faces: _Faces | None = None


def open_faces() -> dict[str, int]:
    """Font file -> the size its one open face is set to now (empty before :func:`install`)."""
    return {path: face.size for path, face in _faces.faces.items()} if _faces else {}


def installed() -> bool:
    """Whether Kivy's SDL2 text provider draws through one face per font file."""
    return bool(_kivys)


class _Canvas:
    """The surface one text is drawn on (Kivy's ``_SurfaceContainer``, through ctypes)."""

    def __init__(self, lib: _Lib, w: int, h: int) -> None:
        self.lib, self.w, self.h = lib, w, h
        self.surface = lib.SDL_CreateRGBSurface(0, w, h, 32, 0x000000FF, 0x0000FF00, 0x00FF0000, 0xFF000000)
        if not self.surface:
            raise MemoryError(f"no {w}x{h} surface: {lib.SDL_GetError().decode(errors='replace')}")
        ctypes.memset(self.surface.contents.pixels, 0, w * h * 4)

    def close(self) -> None:
        if self.surface:
            self.lib.SDL_FreeSurface(self.surface)
            self.surface = None

    __del__ = close  # a text whose drawing failed half-way

    def render(self, label: Any, text: str, x: int, y: int) -> None:
        lib, options = self.lib, label.options
        font = _font(label)
        # hinting and kerning are set as a text is drawn, not as it is measured (as Kivy's provider does)
        hinting = _HINTING.get(options["font_hinting"], 0)
        if lib.TTF_GetFontHinting(font) != hinting:
            lib.TTF_SetFontHinting(font, hinting)
        if options["font_kerning"]:
            if lib.TTF_GetFontKerning(font) == 0:
                lib.TTF_SetFontKerning(font, 1)
        elif lib.TTF_GetFontKerning(font) != 0:
            lib.TTF_SetFontKerning(font, 0)
        color = list(options["color"])
        outline = options["outline_width"]
        blended = options["font_blended"]
        render = lib.TTF_RenderUTF8_Blended if blended else lib.TTF_RenderUTF8_Solid
        data = text.encode("utf-8")
        fg = _Color(int(color[0] * 255), int(color[1] * 255), int(color[2] * 255), 255)
        if outline:
            oc = list(options["outline_color"])
            lib.TTF_SetFontOutline(font, outline)
            st = render(font, data, _Color(int(oc[0] * 255), int(oc[1] * 255), int(oc[2] * 255), 255))
            lib.TTF_SetFontOutline(font, 0)
        else:
            st = render(font, data, fg)
        if not st:
            return
        if outline:
            fgst = render(font, data, fg)
            if not fgst:
                lib.SDL_FreeSurface(st)
                return
            lib.SDL_SetSurfaceBlendMode(fgst, _BLEND_BLEND)
            r = _Rect(int(outline), int(outline), fgst.contents.w, fgst.contents.h)
            lib.SDL_UpperBlit(fgst, None, st, ctypes.byref(r))
            lib.SDL_FreeSurface(fgst)
        r = _Rect(int(x), int(y), st.contents.w, st.contents.h)
        lib.SDL_SetSurfaceAlphaMod(st, int(color[3] * 255))
        lib.SDL_SetSurfaceBlendMode(st, _BLEND_NONE)
        lib.SDL_UpperBlit(st, None, self.surface, ctypes.byref(r))
        lib.SDL_FreeSurface(st)

    def get_data(self) -> Any:
        # (a Kivy core provider: chosen on first import, once Kivy is set up)
        from kivy.core.image import ImageData

        pixels = ctypes.string_at(self.surface.contents.pixels, self.w * self.h * 4)
        return ImageData(self.w, self.h, "rgba", pixels)


def _font(label: Any) -> int:
    assert _faces is not None
    return _faces.font(label.options)


def _get_extents(label: Any, text: str) -> tuple[int, int]:
    assert _faces is not None
    lib = _faces.lib
    font = _font(label)
    outline = label.options["outline_width"]
    w, h = ctypes.c_int(0), ctypes.c_int(0)
    if outline:
        lib.TTF_SetFontOutline(font, outline)
    lib.TTF_SizeUTF8(font, text.encode("utf-8"), ctypes.byref(w), ctypes.byref(h))
    if outline:
        lib.TTF_SetFontOutline(font, 0)
    return w.value, h.value


def _get_descent(label: Any) -> int:
    assert _faces is not None
    return int(_faces.lib.TTF_FontDescent(_font(label)))


def _get_ascent(label: Any) -> int:
    assert _faces is not None
    return int(_faces.lib.TTF_FontAscent(_font(label)))


def _render_begin(label: Any) -> None:
    assert _faces is not None
    label._surface = _Canvas(_faces.lib, label._size[0], label._size[1])


def _render_text(label: Any, text: str, x: int, y: int) -> None:
    label._surface.render(label, text, x, y)


def _render_end(label: Any) -> Any:
    canvas, label._surface = label._surface, None
    try:
        return canvas.get_data()
    finally:
        canvas.close()


_METHODS = {
    "get_extents": _get_extents,
    "get_descent": _get_descent,
    "get_ascent": _get_ascent,
    "_render_begin": _render_begin,
    "_render_text": _render_text,
    "_render_end": _render_end,
}
_kivys: dict[str, Any] = {}  # Kivy's own methods, while ours are installed


def install() -> bool:
    """Make Kivy's SDL2 text provider draw through one open face per font file (once; True when it does)."""
    global _faces
    # (a Kivy core provider: chosen on first import, once Kivy is set up)
    from kivy.core.text import Label as CoreLabel

    if _kivys:
        return True
    if _faces is not None:
        return _patch(CoreLabel)
    if CoreLabel.__name__ != "LabelSDL2":
        log.info("text provider %s: its fonts are opened as Kivy does", CoreLabel.__name__)
        return False
    ttf_path = _loaded("libSDL2_ttf")
    sdl_path = _loaded("libSDL2-2", beside=ttf_path)
    if sdl_path is None or ttf_path is None:
        log.info("SDL2 or SDL2_ttf not found in the process: a font face per size, as Kivy does")
        return False
    try:
        lib = _Lib(ctypes.CDLL(sdl_path), ctypes.CDLL(ttf_path))
    except (OSError, AttributeError) as exc:
        log.info("SDL2_ttf without TTF_SetFontSize (%s): a font face per size, as Kivy does", exc)
        return False
    _faces = _Faces(lib)
    return _patch(CoreLabel)


def _patch(cls: Any) -> bool:
    for name, method in _METHODS.items():
        _kivys[name] = cls.__dict__[name]
        setattr(cls, name, method)
    return True


def uninstall() -> None:
    """Give Kivy's provider its own methods back (a face per size again; the faces opened here stay open for
    :func:`install` to use again)."""
    # (a Kivy core provider: chosen on first import, once Kivy is set up)
    from kivy.core.text import Label as CoreLabel

    for name, method in _kivys.items():
        setattr(CoreLabel, name, method)
    _kivys.clear()
