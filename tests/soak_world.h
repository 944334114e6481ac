// SPDX-License-Identifier: MIT
// The soak's tools, shared by tests/test_controller_soak.c, tests/test_controller_reliability.c,
// tests/fuzz_controller.c and bench/soak.c:
// - an overlap oracle in double precision that uses none of the library's geometry: each shape is a convex core (a
//   point, a segment or a polygon, hulled here) plus a radius; the exact penetration depth is the cores' separating
//   axis overlap plus both radii, or both radii minus the cores' distance when the cores are apart. World shapes are
//   read through Chipmunk's public API (cpCircleShapeGetOffset, cpSegmentShapeGetA, cpPolyShapeGetVert, ... and the
//   body's transform);
// - random worlds on a real cpSpace (static boxes, polygons, segments, circles, slopes, creases, gaps, stairs,
//   one-way platforms, sensors, masked shapes, moving and rotating kinematic platforms) with random characters of
//   every kind and option, and the random actions a game takes (moves, move_and_slide with gravity and jumps, drop
//   through, teleports, state restores, set_shape, set_up, bad input), checked by the oracle after every move;
// - reproductions: a failing move as plain data (shapes in world coordinates, the def, the state, the move) that
//   prints as C with hex floats, runs on a fresh space, and shrinks to the shapes that matter.
// Randomness comes from a soak_source: a seeded generator, or the bytes of a fuzz input. Sources: soak_oracle.c,
// soak_world.c (randomness, worlds, characters, the check, the crowd), soak_case.c (reproductions), soak_run.c (the
// actions and the loop).
#pragma once

#include "kcc/controller.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

// ---------------------------------------------------------------------------------------------------------------
// The oracle

#define SOAK_MAX_CORE 64

/// A convex core plus a radius, world coordinates, double. After soak_core_hull: count 1 (a point), 2 (a segment)
/// or >= 3 (a counter-clockwise polygon without repeated or collinear vertices).
typedef struct soak_core
{
	int count;
	double radius;
	double x[SOAK_MAX_CORE], y[SOAK_MAX_CORE];
} soak_core;

/// depth > 0: the shapes overlap by depth (the shortest translation of a that separates them); depth <= 0: they are
/// -depth apart. normal: unit, out of b toward a (the direction a leaves b along).
typedef struct soak_contact
{
	double depth;
	double nx, ny;
} soak_contact;

/// Replaces the core's points by their convex hull (collinear and repeated points removed).
void soak_core_hull( soak_core* core );

/// The exact contact of two cores (hulled).
soak_contact soak_core_contact( const soak_core* a, const soak_core* b );

/// Lowest and highest value of dot( x, (ux, uy) ) over the shape, radius included.
void soak_core_extent( const soak_core* core, double ux, double uy, double* lo, double* hi );

/// Chipmunk shape kinds (Chipmunk's public API has no getter for a shape's class: the world remembers it).
typedef enum soak_shape_kind
{
	SOAK_CIRCLE = 0,
	SOAK_SEGMENT = 1,
	SOAK_POLY = 2,
} soak_shape_kind;

/// The shape's core in world coordinates, read through Chipmunk's public getters and its body's transform.
void soak_core_from_chipmunk( const cpShape* shape, soak_shape_kind kind, soak_core* out );

/// The character's shape (a def shape: circle, capsule, AABB, OBB or polygon) at position.
void soak_core_from_character( const kcc_shape* shape, vec2s position, soak_core* out );

/// The Chipmunk kind a controller gives its own shape.
soak_shape_kind soak_kind_of_character( const kcc_shape* shape );

/// The character's height: its extent along up.
double soak_character_height( const kcc_shape* shape, vec2s up );

/// Whether a shape of filter f blocks a character of filter character (Chipmunk's rule: groups, categories, masks).
bool soak_filter_blocks( cpShapeFilter character, cpShapeFilter f );

/// The one-way rule of the oracle. Inside a one-way shape while passing through it is allowed; the character must
/// not sink into it from above. Above: the character at the start of the move, cast straight down (-up), meets the
/// shape with a floor normal (within max_floor_angle of up) and at most tolerance inside. Such an overlap counts when
/// the character ends inside it with a floor-facing penetration normal.
bool soak_one_way_above( const soak_core* character, const soak_core* shape, vec2s up, double cos_floor,
						 double tolerance );

// ---------------------------------------------------------------------------------------------------------------
// Randomness: a seeded generator, or a fuzz input's bytes (then zeros once they run out)

typedef struct soak_source
{
	uint64_t state;
	const uint8_t* bytes; ///< NULL: the generator
	size_t size, at;
} soak_source;

soak_source soak_source_seeded( uint64_t seed );
soak_source soak_source_bytes( const uint8_t* bytes, size_t size );
uint64_t soak_next( soak_source* s );
/// True once a byte source is used up (never for the generator).
bool soak_exhausted( const soak_source* s );
double soak_uniform( soak_source* s, double lo, double hi );
double soak_log_uniform( soak_source* s, double lo, double hi );
int soak_int( soak_source* s, int n ); ///< in [0, n)
bool soak_chance( soak_source* s, double p );

// ---------------------------------------------------------------------------------------------------------------
// Worlds

#define SOAK_MAX_SHAPES 1024
#define SOAK_MAX_PLATFORMS 8
#define SOAK_MAX_CHARACTERS 4

/// Filter categories of the worlds.
#define SOAK_CAT_LEVEL ( (cpBitmask)1 )
#define SOAK_CAT_ONE_WAY ( (cpBitmask)2 )
#define SOAK_CAT_GHOST ( (cpBitmask)4 ) ///< blocks only characters whose mask has it
#define SOAK_CAT_CHARACTER ( (cpBitmask)8 )
#define SOAK_CAT_CRATE ( (cpBitmask)16 ) ///< pushable crates (kinematic), and dynamic boxes (impulses only)
#define SOAK_MAX_CRATES 32

/// Character kinds (statistics are kept per kind).
typedef enum soak_character_kind
{
	SOAK_KIND_CIRCLE = 0,
	SOAK_KIND_CAPSULE,
	SOAK_KIND_BOX,         ///< sharp: kcc_make_box radius 0, kcc_make_aabb or kcc_make_obb
	SOAK_KIND_ROUNDED_BOX,
	SOAK_KIND_POLYGON,
	SOAK_KIND_ROUNDED_POLYGON,
	SOAK_KIND_COUNT
} soak_character_kind;

const char* soak_kind_name( int kind );

/// Character options (statistics are kept per option).
enum
{
	SOAK_OPT_CONSTANT_SPEED = 1 << 0,
	SOAK_OPT_SLIDE_ON_SLOPE = 1 << 1,  ///< stop_on_slope off
	SOAK_OPT_STEPS = 1 << 2,
	SOAK_OPT_NO_SNAP = 1 << 3,
	SOAK_OPT_FLOATING = 1 << 4,
	SOAK_OPT_TILTED_UP = 1 << 5,
	SOAK_OPT_FLIPPED_UP = 1 << 6,
	SOAK_OPT_NO_CEILING_SLIDE = 1 << 7,
	SOAK_OPT_FEW_CANDIDATES = 1 << 8,  ///< max_candidates 16..64
	SOAK_OPT_TINY = 1 << 9,            ///< under 0.1 tall
	SOAK_OPT_THIN = 1 << 10,           ///< one side under a tenth of the other
	SOAK_OPT_BIG_SKIN = 1 << 11,       ///< skin over a tenth of the size
	SOAK_OPT_OFFSET_SHAPE = 1 << 12,   ///< the shape is not centred on the position
	SOAK_OPT_CORNER_CORRECTION = 1 << 13,
	SOAK_OPT_COUNT = 14
};

const char* soak_option_name( int bit );

/// Actions (statistics are kept per action).
typedef enum soak_action_kind
{
	SOAK_ACT_WALK = 0,   ///< a short move in a random direction
	SOAK_ACT_LONG,       ///< a move of up to 20 units
	SOAK_ACT_HUGE,       ///< up to max_displacement
	SOAK_ACT_REVERSE,    ///< against the previous input
	SOAK_ACT_AIMED,      ///< toward a shape of the world (half the time a crate, when there are some)
	SOAK_ACT_GRAVITY,    ///< move_and_slide with gravity, walking and jumps
	SOAK_ACT_DROP,       ///< drop_through, then a gravity step
	SOAK_ACT_TELEPORT,   ///< set_position to a clear spot, then a move
	SOAK_ACT_INSIDE,     ///< set_position inside a shape, then a move (depenetration)
	SOAK_ACT_RESTORE,    ///< set_state of a snapshot taken earlier, then a move
	SOAK_ACT_SET_SHAPE,  ///< set_shape (crouch, stand up): never overlapping after it, or KCC_ERROR_BLOCKED and no change
	SOAK_ACT_SET_UP,     ///< set_up (gravity flip, walls), then a gravity step
	SOAK_ACT_BAD,        ///< invalid input: an error and no change
	SOAK_ACT_ODD_DEF,    ///< odd inputs only: create with a def of odd fields (NULL exactly when the def is refused)
	SOAK_ACT_ODD_STATE,  ///< odd inputs only: set_state with corrupted fields, then a move
	SOAK_ACT_DESTROY,    ///< odd inputs only: destroy the character (a new one is created on its next turn)
	SOAK_ACT_COUNT
} soak_action_kind;

const char* soak_action_name( int action );

/// What a failing move looked like from outside (statistics and printed reproductions are kept per class).
typedef enum soak_failure_class
{
	SOAK_FAIL_TRUNCATED = 0,  ///< the move reported KCC_CANDIDATES_TRUNCATED
	SOAK_FAIL_RIDING,         ///< it started on a kinematic body (the carry came first)
	SOAK_FAIL_PUSH_ONE_WAY,   ///< it was pushed out of something (KCC_DEPENETRATED) and ended in a one-way shape
	SOAK_FAIL_PUSH,           ///< it was pushed out of something and ended in another solid
	SOAK_FAIL_ONE_WAY,        ///< it sank into a one-way shape it was above
	SOAK_FAIL_LONGER,         ///< constant speed: it moved farther than asked
	SOAK_FAIL_AGAINST,        ///< it moved against the input
	SOAK_FAIL_OTHER,
	SOAK_FAIL_COUNT
} soak_failure_class;

const char* soak_failure_name( int klass );

/// Roles of the world's shapes.
enum
{
	SOAK_ROLE_SENSOR = 1 << 0,
	SOAK_ROLE_ONE_WAY = 1 << 1,
	SOAK_ROLE_GHOST = 1 << 2,
	SOAK_ROLE_PLATFORM = 1 << 3,  ///< on a kinematic body
	SOAK_ROLE_CHARACTER = 1 << 4, ///< a controller's own shape
	SOAK_ROLE_CRATE = 1 << 5,     ///< on a crate's body (kinematic: pushable; dynamic: stepped by cpSpaceStep)
};

typedef struct soak_shape
{
	cpShape* shape;
	soak_shape_kind kind;
	uint32_t roles;
	int owner; ///< index of the character owning it, or -1
} soak_shape;

/// A body's pose (position and angle).
typedef struct soak_pose
{
	double x, y, angle;
} soak_pose;

typedef struct soak_platform
{
	cpBody* body;
	bool by_velocity; ///< velocity + cpSpaceStep, else position and angle set directly
	double base_x, base_y, base_angle;
	double amp_x, amp_y, omega, phase;
	double spin;      ///< rad/s of continuous rotation
	double swing;     ///< amplitude of an angle oscillation
} soak_platform;

/// How the character's shape was made (printed exactly in reproductions).
typedef struct soak_shape_spec
{
	int maker;        ///< 0 circle, 1 capsule, 2 box, 3 aabb, 4 obb, 5 polygon
	float p[4];       ///< circle: cx, cy; capsule: ax, ay, bx, by; box: hx, hy; aabb: min, max; obb: cx, cy, hx, hy
	float radius;     ///< circle / capsule / box / polygon radius
	float angle;      ///< obb
	int count;        ///< polygon points
	vec2s points[KCC_MAX_POLYGON_VERTICES];
} soak_shape_spec;

kcc_shape soak_make_character_shape( const soak_shape_spec* spec );

typedef struct soak_character
{
	kcc_controller* c; ///< NULL when not created
	kcc_controller_def def;
	soak_shape_spec spec;
	int kind;
	uint32_t options;
	double height;
	int shape_index;   ///< its own shape in the world's table
	vec2s velocity;    ///< for the gravity steps
	vec2s last_delta;
	const cpShape* drop_shape; ///< the one-way shape it drops through (the oracle exempts it), or NULL
	const cpShape* floor_shape; ///< the floor of its last move (or where set_position put it), as the controller says
	bool one_way_inside; ///< its last move (or set_position) left it inside a one-way shape, as the controller says
	bool riding;       ///< its last move ended on a kinematic body's shape
	soak_pose ride;    ///< that body's pose then: the carry covers its motion since (several steps when moves skip)
	bool have_snapshot;
	kcc_controller_state snapshot;
	soak_shape_spec snapshot_spec; ///< the shape in the snapshot (set_state restores it)
	soak_pose snapshot_ride; ///< the pose its platform had at the snapshot's last move
} soak_character;

typedef struct soak_world
{
	cpSpace* space;
	double half_size;  ///< level shapes lie in [-half_size, half_size]^2
	bool spatial_hash;
	bool steps_space;  ///< cpSpaceStep every frame (velocity-driven platforms, or just the rehash)
	double time, dt;
	int frame;
	int shape_count;
	soak_shape shapes[SOAK_MAX_SHAPES];
	int platform_count;
	soak_platform platforms[SOAK_MAX_PLATFORMS];
	int character_count;
	soak_character characters[SOAK_MAX_CHARACTERS];
	int crate_count;
	cpBody* crates[SOAK_MAX_CRATES]; ///< kinematic (pushable) or dynamic boxes, one shape each
	int crate_shapes[SOAK_MAX_CRATES]; ///< their shapes' indices in the table
} soak_world;

typedef struct soak_world_config
{
	int features;        ///< random level features (each one to a dozen shapes)
	int platforms;       ///< at most
	int characters;      ///< 1..SOAK_MAX_CHARACTERS
	double half_size;
	bool odd_inputs;     ///< fuzz: also invalid defs, destroy / re-create, corrupted states
	int crates;          ///< at most (kinematic pushable crates, piles of them, dynamic boxes); 0: none
} soak_world_config;

/// A random world (characters included, spawned clear of solids). NULL when nothing could be built.
soak_world* soak_world_create( soak_source* src, const soak_world_config* config );
void soak_world_destroy( soak_world* w );

/// Moves the platforms to the next frame (the game's part of the frame order); cpSpaceStep moves the dynamic crates.
void soak_world_step_platforms( soak_world* w );

// ---------------------------------------------------------------------------------------------------------------
// Checking moves

/// What the oracle found after one move of a character.
typedef struct soak_check
{
	double depth;      ///< deepest counted overlap, world units (<= 0: clear)
	double heights;    ///< depth / height
	int shape_index;   ///< the shape, or -1
	bool counted;      ///< an overlap beyond 1e-3 of the height without KCC_CRUSHED
} soak_check;

/// Overlap beyond which a move fails, in heights (DESIGN.md, property 1).
#define SOAK_TOLERANCE 1.0e-3

/// What a move's reported path gives the one-way rule.
typedef enum soak_path_leg
{
	SOAK_PATH_LEG = 0,       ///< a consistent path: the rule judges along it (soak_check_character)
	SOAK_PATH_TRUNCATED = 1, ///< the path filled its capacity (points may be dropped): the rule judges at the start
	SOAK_PATH_BROKEN = 2,    ///< its first point is not the move's start or its last not the end (a failure)
} soak_path_leg;

/// Whether result's path runs from start (the position before the move) to end (after it), and whether it is full
/// (points may be dropped). *leg: the start of its last leg; *carried: that is the move's start, before the
/// platform's carry, else a point after the carry.
soak_path_leg soak_path_last_leg( const kcc_move_result* result, vec2s start, vec2s end, vec2s* leg, bool* carried );

/// Deepest overlap of the character at its current position with the solids that block it. start: its position
/// before the move (for the one-way rule), or NULL after a change of shape (one-way shapes never count: the change is
/// refused only for other solids). result: the move's result, or NULL. flags: the move's flags.
/// The one-way rule judges "above" at the start of the leg of result's path that entered the shape: its last point
/// before the end clear of the shape (within the tolerance), after the first (a one-way shape blocks only from above:
/// a character may leave its top, go round and enter it from the side within one move). With no such point, no
/// result, or a path that is broken or full (soak_path_last_leg), it judges at start (carried by its platform).
soak_check soak_check_character( const soak_world* w, int index, const vec2s* start, const kcc_move_result* result,
								 uint32_t flags );

/// Deepest overlap of each crate (out: crate_count entries, world units, <= 0: clear) with what blocks the crates
/// character index pushes: the shapes that block the character (one-way shapes and the crate itself excepted) and
/// the character. Reads the crates and characters where Chipmunk has them now (their caches are refreshed).
/// deepest (may be NULL): the index of the shape of each crate's deepest overlap, or -1.
void soak_crate_depths( const soak_world* w, int index, double* out, int* deepest );

// ---------------------------------------------------------------------------------------------------------------
// Reproductions: one move as plain data

#define SOAK_CASE_MAX_SHAPES 256
#define SOAK_CASE_MAX_VERTICES 16

typedef struct soak_case_shape
{
	soak_shape_kind kind;
	double radius;
	int count;  ///< vertices (circle 1: the centre; segment 2)
	double v[SOAK_CASE_MAX_VERTICES][2];
	cpBitmask categories, mask;
} soak_case_shape;

typedef enum soak_case_call
{
	SOAK_CALL_MOVE = 0,           ///< kcc_controller_move( c, delta )
	SOAK_CALL_MOVE_AND_SLIDE = 1, ///< kcc_controller_move_and_slide( c, delta (a velocity), dt )
} soak_case_call;

typedef struct soak_case
{
	int shape_count;
	soak_case_shape shapes[SOAK_CASE_MAX_SHAPES]; ///< static, in this order
	soak_shape_spec spec;
	kcc_controller_def def;      ///< def.shape comes from spec
	vec2s position;              ///< the state before the move
	uint32_t flags;
	vec2s floor_normal;
	int support_count;           ///< the floors the last move stood on (the next move's snap reads them)
	vec2s supports[4];
	soak_case_call call;
	vec2s delta;
	float dt;
	// what the soak saw (for the reproduction check)
	vec2s expected_position;
	double expected_heights;
	const char* note;
} soak_case;

typedef struct soak_case_outcome
{
	kcc_status status;
	kcc_move_result result;
	double heights;   ///< deepest overlap in heights (<= 0: clear)
	int shape_index;
	bool fails;       ///< overlap beyond the tolerance without KCC_CRUSHED, or NaN
} soak_case_outcome;

/// A case on the heap (it is large): no shapes, the default def, the state (0, 0) in the air, a move of 0.
soak_case* soak_case_new( void );

/// Adds a static shape: count points as x0, y0, x1, y1, ... (circle: the centre; segment: its ends).
void soak_case_add( soak_case* k, soak_shape_kind kind, double radius, int count, const double* xy,
					cpBitmask categories, cpBitmask mask );

/// Runs the case on a fresh space (default bounding box tree).
soak_case_outcome soak_case_run( const soak_case* k );

/// The case of a character's move as the world is now: the shapes near the move (the character's own excluded),
/// the state before it, the call.
void soak_case_capture( const soak_world* w, int index, const kcc_controller_state* before, soak_case_call call,
						vec2s delta, float dt, soak_case* out );

/// Drops every shape and def field the failure does not need (keeps the case failing). Returns false when the case
/// does not fail to begin with.
bool soak_case_shrink( soak_case* k );

/// Prints the case as C (hex floats: exact).
void soak_case_print( FILE* f, const soak_case* k );

// ---------------------------------------------------------------------------------------------------------------
// The crowd: a character inside count overlapping static circles (radius 3, centres within 0.5 of the origin, the
// character at the origin): no way out, far more shapes than any candidate buffer. The move's cost must stay bounded.

/// The space (default bounding box tree) and, in def, a default capsule at the origin. Free with soak_crowd_destroy.
cpSpace* soak_crowd_create( int count, kcc_controller_def* def );
void soak_crowd_destroy( cpSpace* space );

/// The oracle over the crowd: the deepest overlap of the character shape at position with its circles, in heights.
double soak_crowd_overlap( cpSpace* space, const kcc_shape* shape, vec2s position );

// ---------------------------------------------------------------------------------------------------------------
// The soak loop

typedef struct soak_tally
{
	uint64_t moves, overlaps;
	double worst;  ///< heights
} soak_tally;

typedef struct soak_stats
{
	uint64_t worlds, moves, errors, bad_calls;
	uint64_t overlaps;          ///< unflagged overlaps beyond the tolerance
	uint64_t overlaps_truncated; ///< of which the move reported KCC_CANDIDATES_TRUNCATED
	uint64_t path_mismatches;   ///< moves whose path does not start at the start or end at the end
	uint64_t nan, moved_on_error, wrong_status;
	uint64_t shape_changes;     ///< set_shape calls that succeeded
	uint64_t shape_overlaps;    ///< of which left the new shape overlapping a solid beyond the tolerance
	uint64_t crushed, depenetrated, hit_limit, truncated, stepped, snapped, on_floor;
	uint64_t pushes, crate_moves;   ///< moves that moved a crate, and the crates they moved
	uint64_t crate_overlaps;        ///< crates a move left deeper in a solid than before, beyond the tolerance
	double crate_worst;             ///< of which the deepest, in the crate's heights
	uint64_t replays, replay_mismatches; ///< moves played again from the state before them (crates put back): any
										 ///< difference in the character, its velocity, flags or the crates counts
	double worst;               ///< heights
	soak_tally kinds[SOAK_KIND_COUNT];
	soak_tally options[SOAK_OPT_COUNT];
	soak_tally actions[SOAK_ACT_COUNT];
	soak_tally riding;          ///< moves that started on a kinematic body
	bool have_worst_case;
	soak_case worst_case;
	int printed;                ///< failures printed so far
	soak_tally failures[SOAK_FAIL_COUNT]; ///< per failure class (moves: failures of the class; soak_report prints
										  ///< the first of each)
} soak_stats;

typedef struct soak_run_config
{
	uint64_t seed;
	uint64_t moves;      ///< stop after this many moves
	int frames_per_world;
	soak_world_config world;
	int print_failures;  ///< reproductions printed (the first ones)
	FILE* log;           ///< where failures go (NULL: nowhere)
	bool shrink;         ///< shrink printed reproductions
	int64_t only_world;  ///< >= 0: run only this world of the seed (and print each of its failures)
} soak_run_config;

/// Installs the soak's assert hook: a KCC_ASSERT counts (kcc_make_polygon of random points may assert in Debug;
/// odd defs do) instead of aborting. A move that asserts is a failure.
void soak_hook_asserts( void );

/// Runs worlds one after the other until config->moves moves were checked.
void soak_run( const soak_run_config* config, soak_stats* stats );

/// Runs frames of one world (every character acts once per frame). Returns the moves made.
uint64_t soak_world_run( soak_world* w, soak_source* src, int frames, const soak_run_config* config,
						 soak_stats* stats );

/// Prints the statistics.
void soak_stats_print( FILE* f, const soak_stats* stats );
