// SPDX-License-Identifier: MIT
// kcc2d levels: load a Tiled map (.tmj / .json / .tmx) or an LDtk level (.ldtk) into a caller's cpSpace, then move
// its platforms each frame.
// Tile layers become static boxes (runs of full tiles merged), object layers become static shapes, one-way
// platforms, moving platforms (kinematic bodies on a path), zones (sensors), spawn points and pushable crates.
// A malformed map gives a status and a message naming the file, the object and the path in it, and leaves the
// space unchanged; warnings name what loaded but likely not as the map meant. See docs/levels.md.
#pragma once

#include "kcc/controller.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KCC_LEVEL_MESSAGE_SIZE 512 ///< bytes of a kcc_level_error message, terminator included
#define KCC_LEVEL_MAX_RULES 1024   ///< most rules a def may hold

/// Return codes of the loader. KCC_LEVEL_OK is 0; errors are negative and leave the space unchanged.
typedef enum kcc_level_status
{
	KCC_LEVEL_OK = 0,
	KCC_LEVEL_ERROR_ARGUMENT = -1,    ///< a NULL argument, a def not made by kcc_default_level_def, a locked space
	KCC_LEVEL_ERROR_IO = -2,          ///< a file could not be read
	KCC_LEVEL_ERROR_SYNTAX = -3,      ///< not JSON or not XML (the message gives the line and column)
	KCC_LEVEL_ERROR_UNSUPPORTED = -4, ///< a valid map that kcc2d does not load (isometric, an unknown compression ...)
	KCC_LEVEL_ERROR_INVALID = -5,     ///< a value missing, of the wrong type, out of range or inconsistent
	KCC_LEVEL_ERROR_LIMIT = -6,       ///< beyond a limit (of the def: cells, objects, polygon points, coordinates,
									  ///< file size; or the readers' nesting depth)
	KCC_LEVEL_ERROR_MEMORY = -7,      ///< an allocation failed
} kcc_level_status;

/// What went wrong: the status and one line, "file: what: problem (at JSON path)".
typedef struct kcc_level_error
{
	kcc_level_status status;
	char message[KCC_LEVEL_MESSAGE_SIZE];
} kcc_level_error;

/// Reads a whole file for the loader (maps, external tilesets and templates, LDtk levels saved apart). Returns false
/// when it cannot; otherwise *data is a buffer from malloc (the loader frees it with free) holding *size bytes.
typedef bool kcc_level_read_fcn( const char* path, void* user, char** data, size_t* size );

/// What an object is, from its Tiled class (Tiled >= 1.9 "class", older "type"; an object without one takes its
/// layer's class). See docs/levels.md for each class's properties.
typedef enum kcc_level_object_kind
{
	KCC_LEVEL_SOLID = 0,    ///< class "solid" or none: static collision
	KCC_LEVEL_ONE_WAY = 1,  ///< class "one_way": static, blocks only from above
	KCC_LEVEL_PLATFORM = 2, ///< class "platform": a kinematic body moved along a path by kcc_level_step
	KCC_LEVEL_ZONE = 3,     ///< class "zone": sensor shapes, never block
	KCC_LEVEL_SPAWN = 4,    ///< class "spawn": a position (no shape)
	KCC_LEVEL_CRATE = 5,    ///< class "crate": a pushable kinematic body
	KCC_LEVEL_PATH = 6,     ///< class "path", or a polyline / polygon a platform follows: no shape
	KCC_LEVEL_OTHER = 7,    ///< any other class, text objects, points, and a layer with collision = false: no shape
} kcc_level_object_kind;

/// A map's own conventions mapped to kcc2d's roles without editing the map. Rules are tried in order before the
/// built-in classes; the first rule whose every non-NULL field matches a tile or an object decides what it
/// becomes. A tile matches only rules without a name whose kind is SOLID, ONE_WAY, ZONE or OTHER (its whole cell,
/// or its collision shapes when it has some, becomes that); an object matches any rule. See docs/levels_tiled.md.
typedef struct kcc_level_rule
{
	const char* layer;          ///< the layer's name; NULL = any
	const char* class_name;     ///< the tile's or object's class (Tiled >= 1.9 class, older type; LDtk: the
								///< entity's or the IntGrid value's identifier); NULL = any
	const char* name;           ///< the object's name; NULL = any
	const char* property;       ///< a bool property that must be true on the tile or object; NULL = none needed
	kcc_level_object_kind kind; ///< what it becomes; KCC_LEVEL_OTHER = nothing (no shape)
} kcc_level_rule;

/// Must be initialised with kcc_default_level_def().
typedef struct kcc_level_def
{
	float pixels_per_unit;       ///< Tiled pixels per world unit; 0 = the map's tile height (one tile row = 1 unit)
	cpBitmask solid_category;    ///< filter category of static level shapes and moving platforms. Default 1 << 0
	cpBitmask one_way_category;  ///< one-way platforms (match def.one_way_categories). Default 1 << 1
	cpBitmask pushable_category; ///< crates (match def.pushable_categories). Default 1 << 2
	cpBitmask zone_category;     ///< zone sensors. Default 1 << 3
	const char* solid_property;  ///< the bool tile property that makes a whole tile solid. Default "solid" (maps made
								 ///< for Phaser often use "collides")
	bool skip_invisible_layers;  ///< false (default): hidden layers load too (collision layers are often hidden)
	bool merge_tiles;            ///< merge runs of full solid tiles into larger boxes. Default true
	int max_cells;               ///< largest width * height of a tile layer (or of its chunks' span). Default 1 << 24
	int max_polygon_points;      ///< most points of one polygon or polyline. Default 1024
	float max_coordinate;        ///< largest |coordinate| in world units. Default 1e6
	int max_objects;             ///< most objects of a map, every layer's together. Default 100000
	size_t max_file_size;        ///< largest file read (map, tileset, template, LDtk level), bytes. Default 64 MiB
	kcc_level_read_fcn* read_file; ///< NULL: stdio. Called for the map (load_file) and every file it refers to
	const kcc_level_rule* rules; ///< tried in order before the built-in classes, during the load only. Default none
	int rule_count;              ///< at most KCC_LEVEL_MAX_RULES
	const char* ldtk_level;      ///< an LDtk project's level, by identifier; NULL = the first level
	void* read_user;             ///< passed to read_file
	int internal_cookie;         ///< set by kcc_default_level_def; do not touch
} kcc_level_def;

typedef enum kcc_level_property_type
{
	KCC_PROPERTY_STRING = 0, ///< also Tiled's color and file properties (their text in string)
	KCC_PROPERTY_INT = 1,    ///< number holds the value
	KCC_PROPERTY_FLOAT = 2,  ///< number holds the value
	KCC_PROPERTY_BOOL = 3,   ///< boolean holds the value
	KCC_PROPERTY_OBJECT = 4, ///< a reference to an object: number holds its id (0 = none)
	KCC_PROPERTY_CLASS = 5,  ///< a class value: string holds its members as compact JSON
	KCC_PROPERTY_OTHER = 6,  ///< a type this version does not know (a newer Tiled's): string holds the value as JSON
} kcc_level_property_type;

/// A Tiled custom property (owned by the level).
typedef struct kcc_level_property
{
	const char* name;
	kcc_level_property_type type;
	const char* string; ///< STRING, CLASS and OTHER; "" otherwise
	double number;      ///< INT, FLOAT, OBJECT; 0 otherwise
	bool boolean;       ///< BOOL; false otherwise
} kcc_level_property;


/// One Tiled object (owned by the level; every object of the map has one, named or not).
typedef struct kcc_level_object
{
	int id;                 ///< Tiled object id
	const char* name;       ///< "" when unnamed
	const char* class_name; ///< the class the kind came from ("" when none)
	const char* layer_name; ///< the object layer's name
	kcc_level_object_kind kind;
	vec2s position;         ///< world units: the point of a point object, else the centre of bounds
	kcc_aabb bounds;        ///< world units, at load (a platform's or crate's moves with it: ask its body)
	cpBody* body;           ///< the body its shapes are on (the space's static body or its own kinematic body)
	int shape_count;        ///< Chipmunk shapes made for it (a concave polygon gives several)
	cpShape* const* shapes;
	int property_count;
	const kcc_level_property* properties;
} kcc_level_object;

typedef enum kcc_level_path_mode
{
	KCC_PATH_PING_PONG = 0, ///< to the end of the path and back (default for a polyline)
	KCC_PATH_LOOP = 1,      ///< round and round (a polygon path always loops; a polyline loops back to its start)
} kcc_level_path_mode;

/// A moving platform: its body follows the path's shape, starting where the platform is drawn (the body moves by
/// path(s) - path(0)).
typedef struct kcc_level_platform
{
	const kcc_level_object* object; ///< the platform object (name, properties, shapes)
	const kcc_level_object* path;   ///< the path object
	cpBody* body;                   ///< kinematic body (moved by position: its Chipmunk velocity stays 0)
	int point_count;                ///< path points, world units (a loop's closing edge is implied)
	const vec2s* points;
	float length;                   ///< of the path in world units (closing edge included for a loop)
	float speed;                    ///< world units per second along the path
	kcc_level_path_mode mode;
	vec2s start;                    ///< body position at load
} kcc_level_platform;

/// Counts of what a load made.
typedef struct kcc_level_info
{
	int tile_count;        ///< non-empty cells that collide
	int merged_tile_count; ///< of them, full tiles that went into merged boxes
	int tile_shape_count;  ///< Chipmunk shapes made for tiles
	int object_count;
	int shape_count;       ///< every Chipmunk shape the level added
	int body_count;        ///< kinematic bodies the level added (platforms and crates)
	int layer_count;       ///< layers read (group layers and their children)
} kcc_level_info;

typedef struct kcc_level kcc_level; ///< opaque; owns its bodies and shapes

KCC_API kcc_level_def kcc_default_level_def( void );

/// Loads a Tiled map (JSON or TMX) or an LDtk project's level (def.ldtk_level) into space. On success *out is the
/// level and the status KCC_LEVEL_OK; on any error *out is NULL, error (optional) says what and where, and the space
/// is unchanged. External tilesets, templates and LDtk levels are read relative to the map's directory. def may be
/// NULL (the defaults).
KCC_API kcc_level_status kcc_level_load_file( cpSpace* space, const char* path, const kcc_level_def* def,
											  kcc_level** out, kcc_level_error* error );

/// Same from a map in memory (size bytes, no terminator needed). name is used in messages and as the base for
/// external tilesets' paths (a name without a directory reads them from the working directory).
KCC_API kcc_level_status kcc_level_load_memory( cpSpace* space, const char* json, size_t size, const char* name,
												const kcc_level_def* def, kcc_level** out, kcc_level_error* error );

/// Removes the level's shapes and bodies from its space and frees everything. NULL is a no-op. Destroy the level
/// before the space. Called from a Chipmunk callback (the space locked: a query's or cpSpaceStep's), where Chipmunk
/// can not remove shapes, it is done when the space unlocks (Chipmunk's post-step callback): the level is gone from
/// the space when the query or step returns; do not use it after this call either way.
KCC_API void kcc_level_destroy( kcc_level* level );

/// A sentence for a status.
KCC_API const char* kcc_level_status_string( kcc_level_status status );

/// Warnings that did not stop the load, each one line naming the file and the layer or object: a tile layer whose
/// tiles made no shape, a map that made no collision at all, a class that no rule or built-in class knows, an
/// object outside the map.
KCC_API int kcc_level_warning_count( const kcc_level* level );
/// Warning index (0 <= index < kcc_level_warning_count), or NULL.
KCC_API const char* kcc_level_get_warning( const kcc_level* level, int index );

// ---------------------------------------------------------------------------------------------------------------
// The runtime. Each frame, the platforms first, then the characters (which then ride the platforms where they are
// now): kcc_level_step( level, dt ), then each character's move.

/// Moves every platform along its path by dt seconds. Platforms are moved by position (cpBodySetPosition +
/// kcc_space_reindex_body): exact, no drift, no cpSpaceStep needed, and the cost of a frame does not grow with the
/// frames run. dt == 0 is a paused frame (KCC_OK, nothing moves). Errors change nothing: KCC_ERROR_NULL_ARGUMENT,
/// KCC_ERROR_NOT_FINITE (dt NaN or infinite), KCC_ERROR_INVALID_ARGUMENT (dt < 0), KCC_ERROR_SPACE_LOCKED (called
/// from a Chipmunk callback: step the level before or after the query or cpSpaceStep).
KCC_API kcc_status kcc_level_step( kcc_level* level, float dt );

/// Puts platforms and crates back where the map drew them and the clock to 0. KCC_ERROR_NULL_ARGUMENT, or
/// KCC_ERROR_SPACE_LOCKED from a Chipmunk callback (nothing changes).
KCC_API kcc_status kcc_level_reset( kcc_level* level );

/// Seconds stepped since load or reset.
KCC_API double kcc_level_get_time( const kcc_level* level );

/// Bytes of the level's state (the same for the whole life of a level: allocate the buffers once). 0 for NULL.
KCC_API size_t kcc_level_state_size( const kcc_level* level );
/// Saves what kcc_level_step, kcc_level_reset and the characters' pushes change (the clock, each platform's place and
/// velocity, the pose and velocity of the level's platform and crate bodies) as plain bytes: store them, copy them,
/// compare them with memcmp. size >= kcc_level_state_size (KCC_ERROR_INVALID_ARGUMENT otherwise). No allocation.
KCC_API kcc_status kcc_level_get_state( const kcc_level* level, void* state, size_t size );
/// Restores a state saved from this level. Restored with the characters' states (kcc_controller_set_state), the
/// same inputs give bit-identical frames. A state of another map, a wrong size or corrupted values:
/// KCC_ERROR_INVALID_ARGUMENT; from a Chipmunk callback: KCC_ERROR_SPACE_LOCKED; either way nothing changes.
KCC_API kcc_status kcc_level_set_state( kcc_level* level, const void* state, size_t size );

KCC_API kcc_level_info kcc_level_get_info( const kcc_level* level );
KCC_API cpSpace* kcc_level_get_space( const kcc_level* level );

/// Map size in world units (width, height): the map spans [0, width] x [0, height], y up.
KCC_API vec2s kcc_level_get_size( const kcc_level* level );
/// One map tile in world units (width, height): a good spatial hash cell is about 1 to 2 tiles.
KCC_API vec2s kcc_level_get_tile_size( const kcc_level* level );
/// The scale the level was loaded with (pixels per world unit).
KCC_API float kcc_level_get_pixels_per_unit( const kcc_level* level );

KCC_API int kcc_level_object_count( const kcc_level* level );
KCC_API const kcc_level_object* kcc_level_get_object( const kcc_level* level, int index );
/// The first object with this name (any kind), or NULL.
KCC_API const kcc_level_object* kcc_level_find_object( const kcc_level* level, const char* name );
/// The first object of this kind with this name (NULL name: the first of the kind), or NULL.
KCC_API const kcc_level_object* kcc_level_find( const kcc_level* level, kcc_level_object_kind kind, const char* name );
/// The object a Chipmunk shape was made for, or NULL (tiles, or a shape that is not the level's).
KCC_API const kcc_level_object* kcc_level_object_of_shape( const kcc_level* level, const cpShape* shape );
/// The Tiled name a shape came from: its object's name, or for tiles their layer's name; NULL when the shape is
/// not the level's.
KCC_API const char* kcc_level_get_shape_name( const kcc_level* level, const cpShape* shape );

KCC_API int kcc_level_platform_count( const kcc_level* level );
KCC_API const kcc_level_platform* kcc_level_get_platform( const kcc_level* level, int index );
/// The first platform with this object name, or NULL.
KCC_API const kcc_level_platform* kcc_level_find_platform( const kcc_level* level, const char* name );
/// The platform's velocity along its path in the last kcc_level_step (world units per second).
KCC_API vec2s kcc_level_get_platform_velocity( const kcc_level* level, const kcc_level_platform* platform );

/// A property of an object by name, or NULL.
KCC_API const kcc_level_property* kcc_level_get_object_property( const kcc_level_object* object, const char* name );
/// A map property by name, or NULL.
KCC_API const kcc_level_property* kcc_level_get_map_property( const kcc_level* level, const char* name );

#ifdef __cplusplus
}
#endif
