#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes the small LDtk projects of test_level_ldtk, in LDtk 1.5's JSON layout (only the members the loader reads,
# plus a few it must skip): small.ldtk (two levels: IntGrid values walls / platform / ladder, entities with fields,
# a moving platform whose path is an EntityRef, a Tiles layer) and apart.ldtk with its level in apart/Level_A.ldtkl.
# Run from this directory: python3 make_ldtk.py
import json

HEADER = {"fileType": "LDtk Project JSON", "app": "LDtk", "doc": "https://ldtk.io/json", "appVersion": "1.5.3"}
DEFS = {
    "layers": [
        {"identifier": "Entities", "type": "Entities", "uid": 2, "gridSize": 16, "intGridValues": []},
        {"identifier": "Collisions", "type": "IntGrid", "uid": 1, "gridSize": 16,
         "intGridValues": [{"value": 1, "identifier": "walls", "color": "#000000"},
                           {"value": 2, "identifier": "platform", "color": "#00FF00"},
                           {"value": 5, "identifier": "ladder", "color": "#0000FF"},
                           {"value": 7, "identifier": None, "color": "#FF0000"}]},
        {"identifier": "Deco", "type": "Tiles", "uid": 3, "gridSize": 16, "intGridValues": []},
    ],
    "entities": [], "tilesets": [], "enums": [], "externalEnums": [], "levelFields": [],
}


def field(name, type_, value):
    return {"__identifier": name, "__type": type_, "__value": value, "__tile": None, "defUid": 0,
            "realEditorValues": []}


def entity(identifier, iid, px, w, h, fields, pivot=(0.5, 1.0)):
    return {"__identifier": identifier, "__grid": [px[0] // 16, px[1] // 16], "__pivot": list(pivot), "__tags": [],
            "__tile": None, "__smartColor": "#FFFFFF", "iid": iid, "width": w, "height": h, "defUid": 0,
            "px": list(px), "fieldInstances": fields, "__worldX": px[0], "__worldY": px[1]}


def layer(identifier, type_, uid, cw, ch, intgrid=None, entities=None, offset=(0, 0), visible=True):
    return {"__identifier": identifier, "__type": type_, "__cWid": cw, "__cHei": ch, "__gridSize": 16,
            "__opacity": 1, "__pxTotalOffsetX": offset[0], "__pxTotalOffsetY": offset[1], "__tilesetDefUid": None,
            "__tilesetRelPath": None, "iid": "layer-%s-%d" % (identifier, uid), "levelId": 0, "layerDefUid": uid,
            "pxOffsetX": offset[0], "pxOffsetY": offset[1], "visible": visible, "optionalRules": [],
            "intGridCsv": intgrid or [], "autoLayerTiles": [], "seed": 1, "overrideTilesetUid": None,
            "gridTiles": [], "entityInstances": entities or []}


# Level_0: 8 x 4 cells of 16 px. Row 3 walls, a platform run on row 1, a ladder column, one unnamed value 7.
W, H = 8, 4
grid0 = [0] * (W * H)
for x in range(W):
    grid0[3 * W + x] = 1
grid0[1 * W + 2] = 2
grid0[1 * W + 3] = 2
grid0[1 * W + 6] = 5
grid0[2 * W + 6] = 5
grid0[0 * W + 0] = 7
entities0 = [
    entity("Player", "e-player", (24, 48), 16, 16, [field("items", "Array<LocalEnum.Item>", ["Knife"])]),
    entity("Checkpoint", "e-check", (104, 48), 16, 32, [field("name", "String", "start2"), field("hp", "Int", 3),
                                                         field("speed", "Float", 1.5), field("open", "Bool", True),
                                                         field("note", "Multilines", "a\nb"),
                                                         field("unset", "Int", None)]),
    entity("Lift", "e-lift", (72, 24), 16, 8, [field("path", "EntityRef", {"entityIid": "e-path", "layerIid": "x",
                                                                          "levelIid": "l0", "worldIid": "w"}),
                                                field("speed", "Float", 2.0)], pivot=(0.5, 0.5)),
    entity("Track", "e-path", (64, 8), 32, 16, [], pivot=(0.0, 0.0)),
    entity("Coin", "e-coin", (200, 8), 8, 8, [], pivot=(0.5, 0.5)),
]
level0 = {"identifier": "Level_0", "iid": "l0", "uid": 0, "worldX": 256, "worldY": -64, "worldDepth": 0,
          "pxWid": W * 16, "pxHei": H * 16, "__bgColor": "#000000", "externalRelPath": None,
          "fieldInstances": [field("music", "String", "forest")],
          "layerInstances": [layer("Entities", "Entities", 2, W, H, entities=entities0),
                             layer("Collisions", "IntGrid", 1, W, H, intgrid=grid0),
                             layer("Deco", "Tiles", 3, W, H)]}
# Level_1: 4 x 2 cells, all walls, offset by half a cell.
grid1 = [1] * 8
level1 = {"identifier": "Level_1", "iid": "l1", "uid": 1, "worldX": 0, "worldY": 64, "worldDepth": 0, "pxWid": 64,
          "pxHei": 32, "externalRelPath": None, "fieldInstances": [],
          "layerInstances": [layer("Collisions", "IntGrid", 1, 4, 2, intgrid=grid1, offset=(8, 0))]}

project = {"__header__": HEADER, "iid": "p", "jsonVersion": "1.5.3", "appBuildId": 1, "defaultGridSize": 16,
           "worldLayout": "Free", "externalLevels": False, "defs": DEFS, "levels": [level0, level1], "worlds": []}
json.dump(project, open("small.ldtk", "w"), indent=1)

apart_level = dict(level1, identifier="Level_A", iid="la")
stub = {k: v for k, v in apart_level.items() if k != "layerInstances"}
stub["layerInstances"] = None
stub["externalRelPath"] = "apart/Level_A.ldtkl"
apart = dict(project, externalLevels=True, levels=[stub])
json.dump(apart, open("apart.ldtk", "w"), indent=1)
json.dump(dict(apart_level, externalRelPath=None), open("apart/Level_A.ldtkl", "w"), indent=1)
