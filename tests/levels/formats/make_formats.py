#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes one small level in every format the loader reads, the way Tiled writes each: a JSON map with a .tsj
# tileset and a .tj template (and one with the .tsx and .tx instead), and TMX maps (CSV, base64, base64 with zlib, gzip and zstd, the oldest <tile>
# elements) with a .tsx tileset and a .tx template; and an infinite map's chunks as JSON and TMX (CSV, zstd).
# test_level_formats loads them all and compares the shapes and objects they make exactly.
# Run from this directory: python3 make_formats.py (needs the zstd command).
import base64, gzip, json, struct, subprocess, zlib
from xml.sax.saxutils import quoteattr, escape

W, H, T = 12, 8, 16
FH, FV = 0x80000000, 0x40000000

tiles = [
    {"id": 0, "properties": [{"name": "solid", "type": "bool", "value": True}]},
    {"id": 1, "type": "one_way"},
    {"id": 2, "objectgroup": {"objects": [{"id": 1, "x": 0, "y": 0,
                                           "polygon": [{"x": 0, "y": 16}, {"x": 16, "y": 0}, {"x": 16, "y": 16}]}]}},
    {"id": 3, "objectgroup": {"objects": [{"id": 1, "x": 0, "y": 8, "width": 16, "height": 8}]}},
    {"id": 5, "objectgroup": {"objects": [{"id": 1, "x": 0, "y": 0, "width": 16, "height": 16, "ellipse": True}]}},
]
tileset = {"name": "eq_tiles", "tilewidth": T, "tileheight": T, "tilecount": 8, "columns": 4, "image": "tiles.png",
           "imagewidth": 64, "imageheight": 32, "margin": 0, "spacing": 0, "tiles": tiles}

ground = [0] * (W * H)
for x in range(W):
    ground[7 * W + x] = 1
for x in range(3, 7):
    ground[4 * W + x] = 2
ground[6 * W + 2] = 3 | FH
ground[6 * W + 9] = 4 | FV
ground[5 * W + 10] = 6
ground[6 * W + 10] = 1
floating = [0] * (W * H)
floating[2 * W + 8] = 4

template_object = {"name": "crate", "type": "crate", "width": 16, "height": 16,
                   "properties": [{"name": "mass", "type": "float", "value": 2.0},
                                  {"name": "tag", "type": "string", "value": "box"}]}
objects = [
    {"id": 1, "name": "spawn", "type": "spawn", "x": 24, "y": 100, "point": True},
    {"id": 2, "name": "wall", "x": 160, "y": 40, "width": 16, "height": 48,
     "properties": [{"name": "note", "type": "string", "value": "two\nlines"}]},
    {"id": 3, "name": "ramp", "x": 100, "y": 40, "polygon": [{"x": 0, "y": 0}, {"x": 30, "y": 0}, {"x": 30, "y": -20},
                                                             {"x": 15, "y": -5}]},
    {"id": 4, "name": "rail", "x": 20, "y": 20, "polyline": [{"x": 0, "y": 0}, {"x": 20, "y": 4}, {"x": 40, "y": 0}]},
    {"id": 5, "name": "ball", "x": 130, "y": 70, "width": 12, "height": 12, "ellipse": True},
    {"id": 6, "name": "lift", "type": "platform", "x": 40, "y": 80, "width": 32, "height": 8,
     "properties": [{"name": "path", "type": "object", "value": 7}, {"name": "speed", "type": "float", "value": 2.5},
                    {"name": "one_way", "type": "bool", "value": True}]},
    {"id": 7, "name": "lift path", "x": 56, "y": 84, "polyline": [{"x": 0, "y": 0}, {"x": 0, "y": -40}]},
    {"id": 8, "template": "eq_crate", "x": 80, "y": 112,
     "properties": [{"name": "mass", "type": "float", "value": 3.5}]},
    {"id": 9, "name": "lava", "class": "zone", "x": 112, "y": 96, "width": 32, "height": 16,
     "properties": [{"name": "damage", "type": "class", "propertytype": "Damage", "value": {"amount": 5}},
                    {"name": "hot", "type": "bool", "value": True}, {"name": "level", "type": "int", "value": 3}]},
    {"id": 10, "name": "tilted", "x": 60, "y": 30, "width": 20, "height": 6, "rotation": 30},
    {"id": 11, "name": "block", "gid": 1 | FH, "x": 176, "y": 64, "width": 16, "height": 16},
]
helpers = [{"id": 12, "name": "guide", "x": 0, "y": 60, "polyline": [{"x": 0, "y": 0}, {"x": 50, "y": 0}]}]
map_properties = [{"name": "title", "type": "string", "value": "formats"}, {"name": "gravity", "type": "float",
                                                                             "value": 9.5}]


def gids_bytes(gids):
    return b"".join(struct.pack("<I", g) for g in gids)


def encode(gids, how):
    raw = gids_bytes(gids)
    if how == "zlib":
        raw = zlib.compress(raw)
    elif how == "gzip":
        raw = gzip.compress(raw, mtime=0)
    elif how == "zstd":
        raw = subprocess.run(["zstd", "-q", "-c", "-19"], input=raw, capture_output=True, check=True).stdout
    return base64.b64encode(raw).decode()


def json_layers(template_path):
    objs = [dict(o) for o in objects]
    for o in objs:
        if "template" in o:
            o["template"] = template_path
    return [
        {"id": 1, "name": "ground", "type": "tilelayer", "width": W, "height": H, "x": 0, "y": 0, "data": ground,
         "visible": True, "opacity": 1},
        {"id": 2, "name": "deco", "type": "group", "offsetx": 8, "offsety": 0, "layers": [
            {"id": 3, "name": "float", "type": "tilelayer", "width": W, "height": H, "data": floating}]},
        {"id": 4, "name": "objects", "type": "objectgroup", "objects": objs},
        {"id": 5, "name": "helpers", "type": "objectgroup", "visible": False, "objects": helpers},
        {"id": 6, "name": "sky", "type": "imagelayer", "image": "sky.png"},
    ]


def write_json():
    m = {"type": "map", "version": "1.10", "orientation": "orthogonal", "renderorder": "right-down", "width": W,
         "height": H, "tilewidth": T, "tileheight": T, "infinite": False, "properties": map_properties,
         "tilesets": [{"firstgid": 1, "source": "eq_tiles.tsj"}], "layers": json_layers("eq_crate.tj")}
    json.dump(m, open("eq_map.tmj", "w"), indent=1)
    # The same JSON map with the XML tileset and template.
    m["tilesets"] = [{"firstgid": 1, "source": "eq_tiles.tsx"}]
    m["layers"] = json_layers("eq_crate.tx")
    json.dump(m, open("eq_map_xml_refs.tmj", "w"), indent=1)
    json.dump(dict(tileset, type="tileset"), open("eq_tiles.tsj", "w"), indent=1)
    json.dump({"type": "template", "object": template_object}, open("eq_crate.tj", "w"), indent=1)


def xml_value(p):
    v = p["value"]
    if p["type"] == "bool":
        return "true" if v else "false"
    if isinstance(v, float) and v == int(v):
        return str(int(v))
    return str(v)


def xml_properties(props, indent):
    out = [indent + "<properties>"]
    for p in props:
        attrs = ' name=%s' % quoteattr(p["name"])
        if p["type"] != "string":
            attrs += ' type="%s"' % p["type"]
        if p["type"] == "class":
            out.append(indent + ' <property%s propertytype=%s>' % (attrs, quoteattr(p["propertytype"])))
            out.append(indent + '  <properties>')
            for k, v in p["value"].items():
                out.append(indent + '   <property name="%s" type="int" value="%s"/>' % (k, v))
            out.append(indent + '  </properties>')
            out.append(indent + ' </property>')
        elif "\n" in str(p["value"]):
            out.append(indent + ' <property%s>%s</property>' % (attrs, escape(p["value"])))
        else:
            out.append(indent + ' <property%s value=%s/>' % (attrs, quoteattr(xml_value(p))))
    out.append(indent + "</properties>")
    return out


def xml_object(o, indent, template_path=None):
    attrs = ""
    for key in ("id", "name", "type", "class", "template", "gid", "x", "y", "width", "height", "rotation"):
        if key in o:
            value = o[key] if key != "template" else template_path
            attrs += " %s=%s" % (key, quoteattr(str(value)))
    body = []
    if "properties" in o:
        body += xml_properties(o["properties"], indent + " ")
    if o.get("point"):
        body.append(indent + " <point/>")
    if o.get("ellipse"):
        body.append(indent + " <ellipse/>")
    for key in ("polygon", "polyline"):
        if key in o:
            body.append(indent + ' <%s points="%s"/>' % (key, " ".join("%g,%g" % (p["x"], p["y"]) for p in o[key])))
    if not body:
        return [indent + "<object%s/>" % attrs]
    return [indent + "<object%s>" % attrs] + body + [indent + "</object>"]


def xml_data(gids, how, indent):
    if how == "csv":
        rows = [",".join(str(g) for g in gids[r * W:(r + 1) * W]) for r in range(H)]
        return [indent + '<data encoding="csv">', ",\n".join(rows), indent + "</data>"]
    if how == "xml":
        return [indent + "<data>"] + [indent + (' <tile gid="%d"/>' % g if g else " <tile/>") for g in gids] + \
            [indent + "</data>"]
    compression = "" if how == "base64" else ' compression="%s"' % how
    return [indent + '<data encoding="base64"%s>' % compression, indent + " " + encode(gids, how), indent + "</data>"]


def write_tmx(how):
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" '
           'width="%d" height="%d" tilewidth="%d" tileheight="%d" infinite="0" nextlayerid="7" nextobjectid="13">'
           % (W, H, T, T)]
    out += xml_properties(map_properties, " ")
    out.append(' <tileset firstgid="1" source="eq_tiles.tsx"/>')
    out.append(' <layer id="1" name="ground" width="%d" height="%d">' % (W, H))
    out += xml_data(ground, how, "  ")
    out.append(" </layer>")
    out.append(' <group id="2" name="deco" offsetx="8" offsety="0">')
    out.append('  <layer id="3" name="float" width="%d" height="%d">' % (W, H))
    out += xml_data(floating, how, "   ")
    out.append("  </layer>")
    out.append(" </group>")
    out.append(' <objectgroup id="4" name="objects">')
    for o in objects:
        out += xml_object(o, "  ", "eq_crate.tx")
    out.append(" </objectgroup>")
    out.append(' <objectgroup id="5" name="helpers" visible="0">')
    for o in helpers:
        out += xml_object(o, "  ")
    out.append(" </objectgroup>")
    out.append(' <imagelayer id="6" name="sky">')
    out.append('  <image source="sky.png" width="64" height="64"/>')
    out.append(" </imagelayer>")
    out.append("</map>")
    open("eq_%s.tmx" % how, "w").write("\n".join(out) + "\n")


def write_tsx_tx():
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<tileset version="1.10" tiledversion="1.10.2" name="eq_tiles" tilewidth="16" tileheight="16" '
           'tilecount="8" columns="4">',
           ' <image source="tiles.png" width="64" height="32"/>']
    for t in tiles:
        attrs = ' id="%d"' % t["id"] + (' type="%s"' % t["type"] if "type" in t else "")
        out.append(" <tile%s>" % attrs)
        if "properties" in t:
            out += xml_properties(t["properties"], "  ")
        if "objectgroup" in t:
            out.append('  <objectgroup draworder="index">')
            for o in t["objectgroup"]["objects"]:
                out += xml_object(o, "   ")
            out.append("  </objectgroup>")
        out.append(" </tile>")
    out.append("</tileset>")
    open("eq_tiles.tsx", "w").write("\n".join(out) + "\n")
    out = ['<?xml version="1.0" encoding="UTF-8"?>', "<template>"] + xml_object(template_object, " ") + ["</template>"]
    open("eq_crate.tx", "w").write("\n".join(out) + "\n")


# An infinite map: two 16 x 16 chunks, at (-16, 0) and (0, 0).
CW = 16
chunks = []
for cx in (-16, 0):
    data = [0] * (CW * CW)
    for x in range(CW):
        data[15 * CW + x] = 1
    data[10 * CW + (3 if cx < 0 else 12)] = 2
    chunks.append((cx, 0, data))


def write_infinite():
    m = {"type": "map", "orientation": "orthogonal", "width": 16, "height": 16, "tilewidth": T, "tileheight": T,
         "infinite": True, "tilesets": [{"firstgid": 1, "source": "eq_tiles.tsj"}],
         "layers": [{"id": 1, "name": "world", "type": "tilelayer", "startx": -16, "starty": 0, "width": 32,
                     "height": 16, "chunks": [{"x": x, "y": y, "width": CW, "height": CW, "data": d}
                                              for x, y, d in chunks]}]}
    json.dump(m, open("eq_infinite.tmj", "w"), indent=1)
    for how in ("csv", "zstd"):
        out = ['<?xml version="1.0" encoding="UTF-8"?>',
               '<map version="1.10" orientation="orthogonal" renderorder="right-down" width="16" height="16" '
               'tilewidth="16" tileheight="16" infinite="1" nextlayerid="2" nextobjectid="1">',
               ' <tileset firstgid="1" source="eq_tiles.tsx"/>',
               ' <layer id="1" name="world" width="16" height="16">']
        out.append('  <data encoding="csv">' if how == "csv" else '  <data encoding="base64" compression="zstd">')
        for x, y, d in chunks:
            out.append('   <chunk x="%d" y="%d" width="%d" height="%d">' % (x, y, CW, CW))
            if how == "csv":
                out.append(",\n".join(",".join(str(g) for g in d[r * CW:(r + 1) * CW]) for r in range(CW)))
            else:
                out.append("    " + encode(d, "zstd"))
            out.append("   </chunk>")
        out += ["  </data>", " </layer>", "</map>"]
        open("eq_infinite_%s.tmx" % how, "w").write("\n".join(out) + "\n")


write_json()
for how in ("csv", "base64", "zlib", "gzip", "zstd", "xml"):
    write_tmx(how)
write_tsx_tx()
write_infinite()
