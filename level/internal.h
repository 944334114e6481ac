// SPDX-License-Identifier: MIT
// Internals shared by the level loader's files: memory (arena, growable lists), the loader's context with its
// error reporting (file, object, JSON path), the intermediate description of the world (pieces of geometry,
// shapes and bodies to make) and the level itself. Nothing here is public.
#pragma once

#include "kcc/level.h"

#include <cjson/cJSON.h>

#include <stdarg.h>
#include <stdlib.h>

#define KCC_LEVEL_COOKIE 0x1e7e1

// Smallest polygon extent or circle radius made into a shape, world units: below it a shape is an authoring
// slip, and its float conversion in the controller would lose it.
#define KCC_LEVEL_MIN_SIZE 1.0e-6

// Fastest platform, world units per second: beyond it a speed is a slip (and a step's move loses all precision).
#define KCC_MAX_PLATFORM_SPEED 1.0e6

// Geometry is read and prepared in double (Tiled's own precision), converted to float only for the level's
// public records; Chipmunk takes doubles.
typedef struct kcc_dvec2
{
	double x, y;
} kcc_dvec2;

typedef struct kcc_dbox
{
	kcc_dvec2 min, max;
} kcc_dbox;

// ---------------------------------------------------------------------------------------------------------------
// Memory: malloc / free, at load time only (kcc_level_step and the queries allocate nothing).

/// Strings and fixed arrays that live as long as the level, freed at once.
typedef struct kcc_arena_block kcc_arena_block;
typedef struct kcc_arena
{
	kcc_arena_block* head;
} kcc_arena;

void* kcc_arena_alloc( kcc_arena* arena, size_t size ); // zeroed, aligned for any type; NULL when out of memory
char* kcc_arena_strdup( kcc_arena* arena, const char* text );
void kcc_arena_free( kcc_arena* arena );

/// A growable array of fixed-size items (the loader's working lists).
typedef struct kcc_list
{
	void* items;
	int count, capacity;
} kcc_list;

/// Appends n zeroed items and returns the first, or NULL (out of memory, or more than KCC_LIST_MAX items).
void* kcc_list_push( kcc_list* list, size_t item_size, int n );
void kcc_list_free( kcc_list* list );

#define KCC_LIST_MAX ( 1 << 28 )
#define KCC_LIST_AT( list, type, index ) ( (type*)( list ).items + ( index ) )

// ---------------------------------------------------------------------------------------------------------------
// The intermediate world: geometry in pieces, then shapes and bodies to make.

typedef enum kcc_piece_kind
{
	KCC_PIECE_POLYGON = 0,  // closed, maybe concave: split into convex shapes when made
	KCC_PIECE_POLYLINE = 1, // open: one segment per edge
	KCC_PIECE_CIRCLE = 2,   // center + radius
} kcc_piece_kind;

/// One piece of an object's or a tile's geometry; its points live in a point list next to it.
typedef struct kcc_piece
{
	kcc_piece_kind kind;
	bool one_way;  // a tile's collision object of class one_way
	bool is_rect;  // an unrotated rectangle (a tile's full-cell test)
	int first, count;
	kcc_dvec2 center;
	double radius;
} kcc_piece;

typedef enum kcc_shape_desc_kind
{
	KCC_DESC_POLYGON = 0,
	KCC_DESC_SEGMENT = 1,
	KCC_DESC_CIRCLE = 2,
} kcc_shape_desc_kind;

/// A Chipmunk shape to make: world points (made relative to its body when built).
typedef struct kcc_shape_desc
{
	kcc_shape_desc_kind kind;
	bool sensor;
	int body;   // index into the body list, -1 for the static body
	int object; // index into the object list, -1 for tiles
	int layer;  // index into the layer names
	cpBitmask category;
	int first, count; // world points
	double radius;
} kcc_shape_desc;

/// A Tiled object as read (pass 1), resolved and turned into shapes in pass 2.
typedef struct kcc_raw_object
{
	int id;
	const char* name;
	const char* class_name;
	const char* layer_name;
	const char* path;  // JSON path, for messages
	const char* what;  // "layer 'x', object 3 'lift'", for messages
	int layer;
	kcc_level_object_kind kind;
	bool has_point;    // a point object
	bool closed;       // a polygon (a closed path)
	bool collision;    // its layer collides (the layer property collision, default true)
	bool is_text;
	bool tile_without_shapes; // a tile object whose tile has no collision (its rectangle stands for it)
	kcc_dvec2 point;
	kcc_dbox bounds;
	int first_piece, piece_count; // world geometry
	int property_count;
	kcc_level_property* properties;
	int first_shape, shape_count; // filled by pass 2
	int body;                     // -1: static
} kcc_raw_object;

typedef struct kcc_platform_desc
{
	int object, path;
	double speed;
	kcc_level_path_mode mode;
} kcc_platform_desc;

/// Per-tile collision, indexed by local tile id.
typedef struct kcc_tile_info
{
	int first_piece, piece_count; // tile-local pixel geometry (relative to the tile image's top-left)
	double width, height;         // the tile's image size in pixels
	bool full;                    // one unrotated rectangle covering the tile, or the solid property
	bool one_way;                 // the one_way property
	bool present;                 // listed in the tileset's tiles
	const char* class_name;       // its class ("" when none), for rules
	const kcc_level_property* properties; // for rules' bool properties
	int property_count;
} kcc_tile_info;

typedef struct kcc_tileset
{
	uint32_t first_gid;
	int tile_count;   // tiles in the set (gids past it are errors), -1 when the file does not say
	int table_size;   // entries in tiles (ids past it have no collision and the set's tile size)
	double tile_width, tile_height;
	double offset_x, offset_y;
	kcc_dvec2 anchor; // tile objects: where (x, y) sits in the image, as fractions (bottom-left = 0, 1)
	const char* name;
	const char* file; // the file it came from (messages; an external one's resolved path)
	bool external;
	kcc_tile_info* tiles;
} kcc_tileset;

// ---------------------------------------------------------------------------------------------------------------
// The loader's context.

/// A stack of text for messages (the JSON path being read, the object being read): push returns the length to pop
/// back to.
typedef struct kcc_text
{
	char text[256];
	int length;
} kcc_text;

/// Appends the separator (only when the text is not empty), then the formatted text, cut at the buffer's end.
int kcc_text_push( kcc_text* stack, const char* separator, const char* format, ... )
#if defined( __GNUC__ )
	__attribute__( ( format( printf, 3, 4 ) ) )
#endif
	;
void kcc_text_pop( kcc_text* stack, int mark );

typedef struct kcc_loader
{
	const kcc_level_def* def;
	kcc_level_error* error;
	kcc_level_status status;
	kcc_arena* arena;       // the level's arena: strings and properties that outlive the load
	const char* map_file;   // name of the map in messages
	const char* file;       // the file being read now (the map, or an external tileset)
	const char* base_dir;   // directory of the map ("" for the working directory)
	kcc_text path;          // the JSON path being read: tilesets[0].tiles[3]
	kcc_text what;          // the object being read: layer 'x', object 3 'lift'
	// While another file is read (an external tileset, a template, an LDtk level): what it is to the file that
	// refers to it, that file and where in it (messages end with "(in the tileset of map.tmj at tilesets[1])").
	const char* from_role;
	const char* from_file;
	kcc_text from_path;

	double pixels_per_unit, map_height_px, tile_width, tile_height;
	int map_width_tiles, map_height_tiles;

	kcc_list tilesets;     // kcc_tileset
	kcc_list tile_pieces;  // kcc_piece, tile-local pixels
	kcc_list tile_points;  // kcc_dvec2
	kcc_list layer_names;  // const char*
	kcc_list objects;      // kcc_raw_object
	kcc_list pieces;       // kcc_piece, objects' world geometry
	kcc_list points;       // kcc_dvec2, world
	kcc_list shapes;       // kcc_shape_desc
	kcc_list shape_points; // kcc_dvec2, world
	kcc_list bodies;       // kcc_dvec2: kinematic body positions (world); index = body id
	kcc_list platforms;    // kcc_platform_desc
	kcc_list templates;    // template files read so far (template.c)
	kcc_list warnings;     // const char*, in the arena
	kcc_list unknown_classes; // const char*: classes already warned about
	bool infinite;         // the map has no fixed bounds (no "outside the map")
	// Names in messages' paths: Tiled's ("", layers, objects, data, properties), or LDtk's for a map made of an
	// LDtk level (its path, layerInstances, entityInstances, intGridCsv, fieldInstances).
	const char* path_prefix;
	const char* key_layers;
	const char* key_objects;
	const char* key_data;
	const char* key_properties;

	int map_property_count;
	kcc_level_property* map_properties;
	kcc_level_info info;
} kcc_loader;

/// Records the first error: "file: what: problem (at path)". Returns status (for `return kcc_fail( ... )`).
kcc_level_status kcc_fail( kcc_loader* L, kcc_level_status status, const char* format, ... )
#if defined( __GNUC__ )
	__attribute__( ( format( printf, 3, 4 ) ) )
#endif
	;

/// Records a warning: "file: what: problem" (the same text once; past KCC_MAX_WARNINGS a last one says so).
void kcc_warn( kcc_loader* L, const char* format, ... )
#if defined( __GNUC__ )
	__attribute__( ( format( printf, 2, 3 ) ) )
#endif
	;
#define KCC_MAX_WARNINGS 64
/// Warns once per class that no rule or built-in class knows.
void kcc_warn_unknown_class( kcc_loader* L, const char* class_name, const char* what );

// rules.c
/// The first of the def's rules matching a tile (name NULL) or an object, or NULL.
const kcc_level_rule* kcc_match_rule( const kcc_loader* L, const char* layer, const char* class_name,
									  const char* name, const kcc_level_property* properties, int property_count,
									  bool tile );
/// The kind's class name ("solid", "one_way", ...) for messages.
const char* kcc_kind_name( kcc_level_object_kind kind );

// Typed reads of a member of a JSON object. Absent members take the default (or fail when required); a member
// of the wrong type, a non-finite number, or an integer out of [min, max] fails, naming the member.
kcc_level_status kcc_json_number( kcc_loader* L, const cJSON* object, const char* key, bool required,
								  double fallback, double* out );
kcc_level_status kcc_json_int( kcc_loader* L, const cJSON* object, const char* key, bool required, double fallback,
							   double min, double max, double* out );
kcc_level_status kcc_json_bool( kcc_loader* L, const cJSON* object, const char* key, bool fallback, bool* out );
kcc_level_status kcc_json_string( kcc_loader* L, const cJSON* object, const char* key, bool required,
								  const char** out ); // "" when absent; points into the JSON tree
kcc_level_status kcc_json_array( kcc_loader* L, const cJSON* object, const char* key, bool required,
								 const cJSON** out ); // NULL when absent
/// Tiled's class: "class" (1.9) when present and non-empty, else "type" (older and newer files).
kcc_level_status kcc_json_class( kcc_loader* L, const cJSON* object, const char** out );
/// Custom properties (the array form of Tiled >= 1.2, or the older name -> value object), copied to the arena.
kcc_level_status kcc_json_properties( kcc_loader* L, const cJSON* owner, kcc_level_property** out, int* count );
/// The same from the properties value itself.
kcc_level_status kcc_json_property_list( kcc_loader* L, const cJSON* list, kcc_level_property** out, int* count );

const kcc_level_property* kcc_find_property( const kcc_level_property* properties, int count, const char* name );
/// A bool property: its value, or fallback when absent; fails when present with another type.
kcc_level_status kcc_property_bool( kcc_loader* L, const kcc_level_property* properties, int count,
									const char* name, bool fallback, bool* out );

/// Elements of a Tiled XML file nested deeper than this are refused (Tiled's own files nest a few levels; group
/// layers add one each). JSON's limit is cJSON's (CJSON_NESTING_LIMIT).
#define KCC_MAX_DEPTH 64

/// Parses a document: Tiled XML when its first character is '<', else JSON.
kcc_level_status kcc_parse_document( kcc_loader* L, const char* text, size_t size, cJSON** out );

/// Parses JSON text, failing with the line and column of a syntax error.
kcc_level_status kcc_json_parse( kcc_loader* L, const char* text, size_t size, cJSON** out );

/// relative joined to dir (absolute paths kept), "." and "dir/.." removed, in the arena; NULL when out of memory.
char* kcc_resolve_path( kcc_loader* L, const char* dir, const char* relative );
/// The directory part of a path ("" when it has none), in the arena.
const char* kcc_directory_of( kcc_arena* arena, const char* path );

/// Where messages point (the file and the JSON path), kept while another file is read.
typedef struct kcc_file_context
{
	const char* file;
	kcc_text path;
	const char* from_role;
	const char* from_file;
	kcc_text from_path;
} kcc_file_context;
/// Reads and parses another file (an external tileset, a template), JSON or XML. A read error is named in the
/// current file's context; from then on, messages name that file and paths within it, until kcc_close_json_file
/// gives the context back. *out is the tree (the caller deletes it), NULL on an error.
/// role says what the file is to the one referring to it ("tileset", "template", "level"), for messages.
kcc_level_status kcc_open_json_file( kcc_loader* L, const char* path, const char* role, cJSON** out,
									 kcc_file_context* saved );
void kcc_close_json_file( kcc_loader* L, const kcc_file_context* saved );

/// Reads a whole file through the def's reader.
kcc_level_status kcc_read_file( kcc_loader* L, const char* path, char** data, size_t* size );

// Pixel (Tiled, y down) to world (y up) coordinates.
kcc_dvec2 kcc_to_world( const kcc_loader* L, kcc_dvec2 pixel );
/// Checks a world point against the def's max_coordinate (and finiteness).
kcc_level_status kcc_check_world( kcc_loader* L, kcc_dvec2 p );

// tileset.c
kcc_level_status kcc_load_tilesets( kcc_loader* L, const cJSON* map );
/// The tileset and local id of a gid (flip bits already masked off), or NULL with an error.
const kcc_tileset* kcc_find_tileset( kcc_loader* L, uint32_t gid, int* local_id );
/// The tile's entry, or NULL for a tile the tileset does not list (no collision, the set's tile size).
const kcc_tile_info* kcc_tile_of( const kcc_tileset* set, int local_id );
void kcc_free_tilesets( kcc_loader* L );

// Tiled's flip flags in the high bits of a gid.
#define KCC_GID_FLIP_H 0x80000000u
#define KCC_GID_FLIP_V 0x40000000u
#define KCC_GID_FLIP_D 0x20000000u
#define KCC_GID_ROTATE_HEX 0x10000000u
#define KCC_GID_MASK 0x0fffffffu


// geometry.c: Tiled object geometry into pieces
/// An affine map of pixel coordinates (x' = a x + b y + tx, y' = c x + d y + ty), then optionally to world.
typedef struct kcc_affine
{
	double a, b, c, d, tx, ty;
	bool to_world;
} kcc_affine;
kcc_affine kcc_affine_identity( bool to_world );
/// outer after inner.
kcc_affine kcc_affine_compose( const kcc_affine* outer, const kcc_affine* inner );
kcc_dvec2 kcc_affine_apply( const kcc_loader* L, const kcc_affine* m, kcc_dvec2 p );
/// Tiled's rotation of an object: clockwise on screen by degrees about (x, y) (exactly the identity at 0).
kcc_affine kcc_affine_rotation( double degrees, double x, double y );

/// A tile as a gid shows it: its image size (the tile's, or the set's for a tile the set does not list), its box
/// after the flips (w and h swapped by a diagonal flip), and the map of its pixels into that box through the flips
/// (diagonal first, then horizontal, then vertical: Tiled's order).
typedef struct kcc_tile_frame
{
	double w, h, box_w, box_h;
	kcc_affine flip;
} kcc_tile_frame;
kcc_tile_frame kcc_tile_frame_of( const kcc_tileset* set, const kcc_tile_info* tile, uint32_t flags );
/// Appends a tile's collision mapped by m (tile pixels to the destination): its pieces, or its whole rectangle
/// when it has none (tile may be NULL).
kcc_level_status kcc_place_tile( kcc_loader* L, const kcc_tile_info* tile, const kcc_tile_frame* frame,
								 const kcc_affine* m, kcc_list* pieces, kcc_list* points );

typedef struct kcc_geometry_info
{
	bool is_point;   // a point object (or a rectangle of size 0 x 0, the older way to mark one)
	bool is_text;
	kcc_dvec2 point; // mapped (x, y) of the object
} kcc_geometry_info;

/// Reads the geometry of a Tiled object (rectangle, ellipse, polygon, polyline, point, text) in its own frame
/// (rotated about its (x, y)), mapped by outer, into pieces and points. Tile objects (gid) are read by the caller.
kcc_level_status kcc_read_geometry( kcc_loader* L, const cJSON* object, const kcc_affine* outer, kcc_list* pieces,
									kcc_list* points, kcc_geometry_info* info );
/// Appends an ellipse (centre, radii along the local axes) mapped by m: a circle piece when it stays round, else
/// a polygon piece of KCC_ELLIPSE_POINTS points.
kcc_level_status kcc_add_ellipse( kcc_loader* L, const kcc_affine* m, kcc_dvec2 center, double rx, double ry,
								  kcc_list* pieces, kcc_list* points );
/// Copies pieces (with their points) from one list pair to another, mapping them by m.
kcc_level_status kcc_copy_pieces( kcc_loader* L, const kcc_affine* m, const kcc_piece* from, int count,
								  const kcc_dvec2* from_points, kcc_list* pieces, kcc_list* points );

#define KCC_ELLIPSE_POINTS 16

// template.c
/// The object an instance of a JSON template stands for: the template's object with the instance's members over
/// it (a new tree the caller deletes), or NULL with an error.
cJSON* kcc_instantiate_template( kcc_loader* L, const cJSON* instance );
void kcc_free_templates( kcc_loader* L );

// tile_layer.c
kcc_level_status kcc_load_tile_layer( kcc_loader* L, const cJSON* layer, int layer_index, double offset_x,
									  double offset_y, const kcc_level_property* properties, int property_count );

// xml.c
/// Reads a Tiled XML document (map, tileset or template) into the tree its JSON form would parse to.
kcc_level_status kcc_xml_parse( kcc_loader* L, const char* text, size_t size, cJSON** out );

// decompress.c
/// Decompresses tile data compressed with method ("zlib", "gzip" or "zstd") into exactly size bytes of out.
kcc_level_status kcc_decompress( kcc_loader* L, const char* method, const uint8_t* in, size_t in_size, uint8_t* out,
								 size_t size );

// ldtk.c
/// Whether a parsed JSON document is an LDtk project.
bool kcc_is_ldtk( const cJSON* root );
/// The project's level (def->ldtk_level, or the first) as the tree of a Tiled map (the caller deletes it), or
/// NULL with an error. Sets the loader's message keys to LDtk's.
kcc_level_status kcc_ldtk_to_tiled( kcc_loader* L, const cJSON* project, cJSON** out );

// base64.c
/// Decodes standard base64 (whitespace skipped). Returns the byte count, or -1 on a bad character or length.
long kcc_base64_decode( const char* text, size_t length, uint8_t* out, size_t capacity );
/// Bytes a decode of length characters can produce at most.
size_t kcc_base64_capacity( size_t length );

// merge.c
typedef struct kcc_cell_rect
{
	int x, y, w, h;
	uint8_t kind;
} kcc_cell_rect;
/// Merges equal non-zero cells (row-major, w x h, consumed: set to 0) into rectangles: greedy runs along rows,
/// then runs extended down over rows holding exactly the same run. Kinds in vertical_kinds (bit kind) may span
/// rows; others stay one row tall. Returns false when out of memory.
bool kcc_merge_cells( uint8_t* cells, int w, int h, uint32_t vertical_kinds, kcc_list* rects );

// polygon.c
typedef enum kcc_polygon_result
{
	KCC_POLYGON_OK = 0,
	KCC_POLYGON_DEGENERATE = 1,   // fewer than 3 distinct points not on one line, or zero area
	KCC_POLYGON_SELF_CROSSING = 2,
	KCC_POLYGON_NO_MEMORY = 3,
} kcc_polygon_result;
/// Removes repeated points and points on a line with their neighbours; returns the new count.
int kcc_polygon_clean( kcc_dvec2* points, int count );
/// Every corner turns the same way, none flat (check simplicity too: a pentagram turns one way).
bool kcc_polygon_is_convex( const kcc_dvec2* points, int count );
/// No two edges cross or touch except neighbours at their shared point.
bool kcc_polygon_is_simple( const kcc_dvec2* points, int count );
/// Splits a simple polygon (any winding) into convex counter-clockwise pieces of at most
/// KCC_MAX_POLYGON_VERTICES points each, appended to out_points with their sizes in out_counts (int).
kcc_polygon_result kcc_polygon_decompose( const kcc_dvec2* points, int count, kcc_list* out_points,
										  kcc_list* out_counts );
/// The same for a polygon already known simple with an area (3 points or more): never KCC_POLYGON_SELF_CROSSING.
kcc_polygon_result kcc_polygon_decompose_simple( const kcc_dvec2* points, int count, kcc_list* out_points,
												 kcc_list* out_counts );
double kcc_polygon_area( const kcc_dvec2* points, int count ); // signed: positive counter-clockwise (y up)

// objects.c
kcc_level_status kcc_load_object_layer( kcc_loader* L, const cJSON* layer, int layer_index, const char* layer_class,
										double offset_x, double offset_y, bool collision );
kcc_level_status kcc_resolve_objects( kcc_loader* L );

// emit.c: shapes from pieces
kcc_level_status kcc_emit_piece( kcc_loader* L, const kcc_piece* piece, const kcc_dvec2* points, int body,
								 int object, int layer, cpBitmask category, bool sensor );

// ---------------------------------------------------------------------------------------------------------------
// The level.

typedef struct kcc_shape_record
{
	int object; // -1 for tiles
	int layer;
} kcc_shape_record;

typedef struct kcc_shape_lookup
{
	uintptr_t key; // the shape's address, as a number (sorted)
	int index;
} kcc_shape_lookup;

typedef struct kcc_platform_state
{
	kcc_dvec2 start;    // body position at load
	kcc_dvec2 position; // at the last step
	vec2s velocity;
	double* cumulative; // length at each point (and at the closing point for a loop)
	kcc_dvec2* dpoints; // path, double
} kcc_platform_state;

struct kcc_level
{
	cpSpace* space; // borrowed: must outlive the level
	kcc_arena arena;
	double time;
	float pixels_per_unit;
	vec2s size;
	vec2s tile_size;
	kcc_level_info info;
	const char** layer_names;
	int layer_count;
	kcc_level_object* objects;
	int object_count;
	kcc_level_platform* platforms;
	kcc_platform_state* platform_states;
	int platform_count;
	cpBody** bodies; // owned kinematic bodies
	kcc_dvec2* body_starts;
	int body_count;
	cpShape** shapes; // owned
	kcc_shape_record* records;
	kcc_shape_lookup* lookup;
	int shape_count;
	bool in_space;
	int map_property_count;
	const kcc_level_property* map_properties;
	const char* const* warnings;
	int warning_count;
};

// build.c: the only file that writes the cpSpace.
kcc_level_status kcc_level_build( kcc_loader* L, kcc_level* level );
void kcc_level_unbuild( kcc_level* level );
void kcc_level_place_body( kcc_level* level, cpBody* body, kcc_dvec2 position );
/// double -> float for the level's records (the one narrowing place).
float kcc_narrow( double x );
