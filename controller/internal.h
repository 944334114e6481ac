// SPDX-License-Identifier: MIT
// Internal interfaces shared by the controller files (not installed). Tests include it for the unit-level checks.
#pragma once

#include "chipmunk_bridge.h"
#include "kcc/controller.h"

#include <stdatomic.h>
#include <string.h>

#define KCC_DEF_COOKIE 0x6b636364   // "kccd"
#define KCC_STATE_COOKIE 0x6b636373 // "kccs"

/// Floor normals a move remembers for the next one's "is it leaving the floor" test.
#define KCC_MAX_SUPPORTS 4

/// Largest max_slides: the casts of one move piece, and so the planes it remembers.
#define KCC_MAX_SLIDES 16

/// Surface classes (the same bits as the move flags).
#define KCC_KIND_FLOOR KCC_ON_FLOOR
#define KCC_KIND_WALL KCC_ON_WALL
#define KCC_KIND_CEILING KCC_ON_CEILING

// ---------------------------------------------------------------------------------------------------------------
// Tolerances: each one named once, with its reason.

/// Approach cosine below which the skin back-off stops growing (kcc_skin_backoff): only a guard against dividing
/// by zero. A grazing hit then stops the cast at once, and the clipped remainder keeps the tangential motion.
#define KCC_MIN_APPROACH 1.0e-4f

/// Room added around the query region and the sweep culls: absorbs the rounding of Chipmunk's double bounds into
/// the float local frame.
#define KCC_QUERY_MARGIN 1.0e-3f
#define KCC_CULL_MARGIN 1.0e-4f

/// Two unit normals whose dot product is at least this are one direction (tile seams, a repeated hit, a flat floor).
#define KCC_PARALLEL_COSINE 0.9999f

/// Depenetration normals this close to opposite (cosine) are the two sides of one squeeze.
#define KCC_OPPOSITE_COSINE 0.99f

/// A previous plane counts as violated only when the motion goes into it by more than this, relative to the
/// motion's length: the float rounding of a projection leaves a residue of about 1e-7.
#define KCC_PLANE_TOLERANCE 1.0e-5f

/// How far from 1 the length of a given direction (up, a restored floor normal) may be: what a game's own float
/// normalisation leaves, far below any real mistake. The controller keeps up normalised.
#define KCC_UNIT_DIRECTION_TOLERANCE 1.0e-3f

/// Overlap with a solid that counts as being inside it, relative to the shape's height: DESIGN.md's property 1 (a
/// move that ends deeper reports KCC_CRUSHED; a new shape that would be deeper is refused).
#define KCC_OVERLAP_TOLERANCE 1.0e-3f

/// Allowance of the floor / ceiling classification (cosine): a 45 degree ramp is a floor under a 45 degree limit
/// despite the rounding of its normal.
#define KCC_CLASSIFY_SLACK 1.0e-5f

/// Queries that may grow one move's region (kcc_world_cover) before the move goes on with what it has: a bound on
/// a move's cost in any world.
#define KCC_MAX_REGION_GROWTHS 4

/// A part of a move whose query overflows the candidate buffer is halved at most this many times (64 parts): with
/// the rule of kcc_move_part, a bound on a move's queries in any world.
#define KCC_MAX_SPLIT_DEPTH 6

/// Reindexes of a character, outside its moves or in moves that made no Chipmunk query, whose dead entries in
/// Chipmunk's spatial hash may wait for one query (kcc_world_reindex_owned).
#define KCC_STALE_REINDEXES 8

/// Displacements shorter than this (world units) are rounding, not motion: no snap reported, no step taken.
#define KCC_ROUNDING_DISTANCE 1.0e-5f

/// A static shape's filter as its record keeps it: its categories and mask. Few static shapes have a group: a non-zero
/// one follows the shape's points (kcc_static_shape_filter gives the whole filter).
typedef struct kcc_static_filter
{
	cpBitmask categories;
	cpBitmask mask;
} kcc_static_filter;

/// Static shapes a character's neighbourhood cache holds at most (kcc_static_cache): a query around it that meets more
/// walks the index.
#define KCC_STATIC_CACHE_SHAPES 32

/// How far the neighbourhood a character's cache holds reaches beyond the query that filled it, in the character's
/// sizes: a character walking then finds its next queries in it for several moves.
#define KCC_STATIC_CACHE_REACH 0.5f

/// A static shape as the static index keeps it (static_index.c): read once, in world coordinates (double), so that a
/// move converts it to its local frame without touching Chipmunk. 64 bytes on a 64-bit target, one cache line (kcc_alloc
/// aligns them): what few shapes have (an area the points do not give exactly, a surface velocity, a filter
/// group) follows their points, read by the functions below. A box tile keeps no points: its corners are its bb's
/// (corners_in_bb, kcc_static_shape_point).
typedef struct kcc_static_shape
{
	cpBB bb;              ///< Chipmunk's bounding box when the index was built
	cpShape* shape;       ///< identity only: never dereferenced (the game may have removed and freed it)
	kcc_static_filter filter;
	const cpVect* points; ///< world points in the index: the circle's centre, the capsule's ends, the polygon's vertices
						  ///< (NULL when corners_in_bb)
	float radius;
	uint16_t count;       ///< points
	uint8_t type : 3;     ///< kcc_shape_type: CIRCLE, CAPSULE, POLYGON, or INVALID (left out of moves)
	bool sensor : 1;
	bool area_follows : 1;      ///< Chipmunk's area is kept after the points (they do not give it bit for bit)
	bool velocity_follows : 1;  ///< a non-zero surface velocity is kept after the points (and the area)
	bool group_follows : 1;     ///< a non-zero filter group is kept after the points (and the area and velocity)
	bool rectangle : 1;         ///< 4 points with sides on the axes: each corner's x and y are those of point 0 or 2
	bool rectangle_y_first : 1; ///< rectangle: points 0 and 1 share x (else y)
	bool corners_in_bb : 1;     ///< rectangle, no points kept: points 0 and 2 are opposite corners of bb, bit for bit
	bool corner_right : 1;      ///< corners_in_bb: point 0's x is bb.r and point 2's bb.l (else the reverse)
	bool corner_top : 1;        ///< corners_in_bb: point 0's y is bb.t and point 2's bb.b (else the reverse)
	bool rectangle_in_range : 1; ///< rectangle with a valid radius and its corners within KCC_BOX_TILE_RANGE
} kcc_static_shape;

/// How far from the world's origin a box tile's corners may lie for every move's local frame to hold them in range:
/// within the geometry's KCC_MAX_MAGNITUDE (1e9) wherever the frame's origin lies within 1e8 of the world's (it is the
/// character's position, within max_coordinate: 1e7 at most). The sweeps then cast the tile as a box without checking
/// its values.
#define KCC_BOX_TILE_RANGE 9.0e8

#if UINTPTR_MAX > 0xffffffffu
_Static_assert( sizeof( kcc_static_shape ) == 64, "a static shape's record is one cache line" );
#endif

/// Point k of a static shape: its own, or a box tile's corner k (from its bb, in the order Chipmunk gave them).
static inline cpVect kcc_static_shape_point( const kcc_static_shape* s, int k )
{
	if ( s->corners_in_bb == false )
	{
		return s->points[k];
	}
	// Point 2's coordinates are the far ones; points 1 and 3 take one coordinate of each.
	bool far_x = k == 2 || ( k == 1 && s->rectangle_y_first == false ) || ( k == 3 && s->rectangle_y_first );
	bool far_y = k == 2 || ( k == 1 && s->rectangle_y_first ) || ( k == 3 && s->rectangle_y_first == false );
	return cpv( s->corner_right != far_x ? s->bb.r : s->bb.l, s->corner_top != far_y ? s->bb.t : s->bb.b );
}

/// A static shape's Chipmunk filter (its group read after its points when it has one).
static inline cpShapeFilter kcc_static_shape_filter( const kcc_static_shape* s )
{
	cpGroup group = CP_NO_GROUP;
	if ( s->group_follows )
	{
		const cpVect* slot = s->points + s->count + ( s->area_follows ? 1 : 0 ) + ( s->velocity_follows ? 1 : 0 );
		memcpy( &group, slot, sizeof( group ) );
	}
	cpShapeFilter f = { group, s->filter.categories, s->filter.mask };
	return f;
}

/// A static shape's points: its own, or a box tile's four corners written into corners.
static inline const cpVect* kcc_static_shape_points( const kcc_static_shape* s, cpVect corners[4] )
{
	if ( s->corners_in_bb == false )
	{
		return s->points;
	}
	corners[0] = kcc_static_shape_point( s, 0 );
	corners[1] = kcc_static_shape_point( s, 1 );
	corners[2] = kcc_static_shape_point( s, 2 );
	corners[3] = kcc_static_shape_point( s, 3 );
	return corners;
}

/// One shape found by the move's bounding box query. Coordinates are in the move's local frame (relative to the
/// character's position at the start of the move).
typedef struct kcc_candidate
{
	kcc_aabb bounds; ///< the Chipmunk shape's bounding box, local frame
	cpBB bb;         ///< the Chipmunk shape's bounding box: with order, the deterministic tie-break key
	cpShape* shape;  ///< borrowed: valid during this move only; identity only when source is not NULL
	const kcc_static_shape* source; ///< from the static index (its cpShape never touched); NULL: from Chipmunk
	int order;       ///< position in the query's answer (the last tie-break: shapes with the same box)
	int piece;       ///< fan piece of a polygon with more than KCC_MAX_POLYGON_VERTICES vertices, else 0
	bool sensor;     ///< reported, never blocks
	bool blocks;     ///< false for sensors, the one-way shape being dropped through and, during the carry, the
					 ///< carrying body's shapes: one test in the casts' loops
	bool one_way;    ///< in the def's one_way_categories: blocks only from above (kcc_one_way_blocks); set with core
					 ///< (a static shape's when gathered: sweeps may cast it without its core, kcc_local_box)
	bool pushable;   ///< in the def's pushable_categories (moved when on a kinematic body); set with one_way
	bool converted;  ///< core is filled (converted lazily, once per move)
	bool cast_ready; ///< core is a polygon the casts take as it is (kcc_polygon_proxy_ok, checked once); set with core
	kcc_shape core;  ///< the shape in the local frame
} kcc_candidate;

typedef struct kcc_space_watch kcc_space_watch;
typedef struct kcc_static_index kcc_static_index;
typedef struct kcc_snapshot kcc_snapshot;
typedef struct kcc_move_context kcc_move_context;

/// The static shapes around a character, found by one walk of the static index (world.c): every shape of the index's
/// build whose box meets box and that the character's gather filter (fixed at its creation) passes, in the walk's
/// order. A query within box takes those meeting it from here, where the walk would find the same.
typedef struct kcc_static_cache
{
	cpBB box;
	uint64_t build; ///< the index's build listed (kcc_static_index's build, from 1); 0: never filled
	int count;      ///< shapes listed; -1: more than KCC_STATIC_CACHE_SHAPES met box
	uint32_t shapes[KCC_STATIC_CACHE_SHAPES]; ///< their places in the index's shapes
} kcc_static_cache;

struct kcc_controller
{
	cpSpace* space; ///< borrowed: must outlive the controller
	kcc_space_watch* watch; ///< the registry's entry for space (NULL: not watched)
	kcc_static_index* static_index; ///< shared with the space's other controllers (holds the single calls' context)
	cpBody* body;   ///< owned: kinematic body, removed and freed by destroy
	cpShape* shape; ///< owned: the character's Chipmunk shape
	kcc_controller_def def;
	// What a batch reads and writes as it checks and lists the character, beside the def: few lines to touch.
	cpShapeFilter query_filter; ///< the def's categories and mask with this controller's own group
	cpBB shape_bb;           ///< the box Chipmunk holds for the shape (cpShapeGetBB), kept by each call changing it:
							 ///< a batch reads it here, not in Chipmunk's memory
	_Atomic uint32_t batch_stamp; ///< the stamp of the last batch that listed the character (kcc_snapshot's stamp)
	int batch_body;          ///< its body in the snapshot's bodies
	double batch_push;       ///< how far the move may push a box (0: it pushes none)
	cpBB influence;          ///< every query box of the batch move lies in it (world; asserted)
	kcc_shape local_shape;   ///< character shape around the origin (AABB / OBB converted to a polygon)
	kcc_aabb local_bounds;   ///< bounds of local_shape
	float cos_floor;         ///< cos( max_floor_angle )
	float tan_floor;         ///< tan( max_floor_angle )
	float step_forward;      ///< least forward motion of a step: the shape's rounding radius plus the skin
	float rounding;          ///< the shape's rounding radius (circle, capsule or polygon radius)
	float bottom_offset;     ///< lowest point of the shape along up, relative to the position
	cpShapeFilter gather_filter; ///< the filter of the move's query (query_filter unless filter_in_callback)
	vec2s position;          ///< float position (exactly the body's position)
	uint32_t flags;          ///< flags of the last move
	vec2s floor_normal;
	vec2s wall_normal;       ///< of the last move's last wall contact (read when KCC_ON_WALL)
	int support_count;       ///< the floors the last move stood on (the final one and those met on the way)
	vec2s supports[KCC_MAX_SUPPORTS];
	// One-way platforms and moving platforms. The pointers are identities: they are compared with the shapes and
	// bodies a query returns and never dereferenced after the move that found them (the game may free them).
	float one_way_tolerance;      ///< how far below a one-way contact the character's lowest point may start
	bool floor_one_way;           ///< the floor of the last move is a one-way shape
	cpShape* floor_shape;         ///< the floor of the last move (identity only)
	cpShape* drop_shape;          ///< one-way shape ignored until the character is clear of it (identity only)
	bool placed;                  ///< in kcc_detect_floor: the game has just put the character there (no past)
	bool one_way_inside;          ///< the last move ended inside a one-way shape (passing through it)
	const cpBody* platform;       ///< kinematic body the character stood on after the last move (identity only)
	cpVect platform_position;     ///< its position at the end of the last move
	double platform_angle;        ///< its angle at the end of the last move, radians
	vec2s carry_anchor;           ///< point carried rigidly by the platform, relative to the position
	vec2s platform_velocity;      ///< the floor body's velocity at the contact after the last move, belt included
	vec2s belt_velocity;          ///< the floor's surface velocity along it after the last move (a conveyor belt)
	vec2s carry;                  ///< the platform's motion at the contact in the current move (its velocity * dt)
	const cpBody* carry_body;     ///< the body that carried the character (read only while carry_missed is not 0)
	vec2s carry_missed;           ///< the part of the carry a wall or ceiling cut off (until the first push-out)
	vec2s real_velocity;          ///< the last move_and_slide's displacement over its dt
	float last_dt;                ///< dt of the last move_and_slide (0: none yet)
	int zone_count;          ///< the sensors the character is inside (zones, below)
	vec2s indexed_position;  ///< where the body and shape were last placed in the space
	const cpBody* static_body; ///< the space's own static body (identity: the gather's quick test)
	bool filter_in_callback; ///< the gather's callback applies the character's filter and sensor_mask itself
	kcc_move_context* move;  ///< the scratch of the move running now: the space's, or a batch worker's
	// A move of kcc_move_and_slide_batch (batch not NULL): the non-static shapes come from the batch's snapshot, and
	// the bodies moved are reindexed by the batch at its end.
	kcc_snapshot* batch;     ///< the batch moving the character now; NULL: a single call (Chipmunk's query)
	int batch_mover;         ///< the move's place in the batch's array
	uint32_t batch_seq;      ///< bodies moved so far in this move (their reindexing order)
	int batch_wave;          ///< the move's wave: after every earlier move it depends on
	bool batch_walks;        ///< its queries may read a shape a batch move may move (kcc_snapshot_walks)
	cpBB batch_base;         ///< the influence box without the boxes the move may push
	vec2s batch_velocity;    ///< the move's velocity and collisions: the batch gives the impulses at its end
	int batch_collision_count;
	// Read or written by few moves, or only their first entries: after the fields every move reads, so that a move
	// touches fewer cache lines.
	const cpBody* collision_bodies[KCC_MAX_COLLISIONS]; ///< the body of each collision of the move's result, NULL for a
														///< static shape (identities: kcc_push_dynamic reads these)
	kcc_collision batch_collisions[KCC_MAX_COLLISIONS]; ///< (with def.mass only)
	cpShape* zones[KCC_MAX_ZONES]; ///< the sensors the character is inside (identities only)
	bool stale;              ///< Chipmunk's spatial hash may hold dead entries of the shape in stale_bb's cells,
	cpBB stale_bb;           ///< which the character's next query walks (kcc_world_query)
	int stale_reindexes;     ///< reindexes that left the dead entries in stale_bb (kcc_world_reindex_owned)
	cpBB leaf_bb;            ///< the shape's leaf in Chipmunk's default tree when last reinserted (a guess)
	cpBB leaf_shape;         ///< the shape's box then, less the body's position
	cpVect leaf_motion;      ///< the body's motion in its last move (kcc_world_reindex_character)
	cpVect leaf_grown;       ///< the motion the leaf was grown for, while the last reindex reinserted it (else 0)
	kcc_static_cache static_cache; ///< the static shapes around the character (world.c's static query)
};

#include "../geometry/always_inline.h"

/// Minimum / maximum of two floats: inline (libm's fminf / fmaxf are calls without -ffinite-math-only). Inputs
/// here are never NaN (validated before the move).
static inline float kcc_minf( float a, float b )
{
	return a < b ? a : b;
}

static inline float kcc_maxf( float a, float b )
{
	return a > b ? a : b;
}

/// The geometry core reports a zero normal where it has none (an initial overlap); any real normal is unit length.
static inline bool kcc_has_normal( vec2s n )
{
	return glms_vec2_dot( n, n ) >= 0.25f;
}

/// How far to move along a direction to change the gap along a surface's normal by gap, for the cosine between the
/// direction and the normal (-dot( direction, normal ) when approaching; dot( normal, up ) going down onto a floor).
static inline float kcc_skin_backoff( float gap, float cosine )
{
	return gap / kcc_maxf( cosine, KCC_MIN_APPROACH );
}

/// Whether normal n is within the floor angle of dir (cos_floor its cosine): a floor for dir = up, a ceiling for
/// dir = -up, in either mode (one-way tops are floors in FLOATING mode too).
static inline bool kcc_within_floor_angle( vec2s n, vec2s dir, float cos_floor )
{
	return glms_vec2_dot( n, dir ) >= cos_floor - KCC_CLASSIFY_SLACK;
}

/// The part of v along up, removed: what remains is lateral.
static inline vec2s kcc_lateral( vec2s v, vec2s up )
{
	return glms_vec2_muladds( up, -glms_vec2_dot( v, up ), v );
}

static inline kcc_aabb kcc_aabb_offset( kcc_aabb b, vec2s p )
{
	kcc_aabb r = { glms_vec2_add( b.min, p ), glms_vec2_add( b.max, p ) };
	return r;
}

static inline kcc_aabb kcc_aabb_union( kcc_aabb a, kcc_aabb b )
{
	kcc_aabb r = { glms_vec2_minv( a.min, b.min ), glms_vec2_maxv( a.max, b.max ) };
	return r;
}

static inline kcc_aabb kcc_aabb_inflate( kcc_aabb b, float m )
{
	kcc_aabb r = { glms_vec2_subs( b.min, m ), glms_vec2_adds( b.max, m ) };
	return r;
}

/// kcc_aabb_inflate for a Chipmunk (world, double) box.
static inline cpBB kcc_bb_inflate( cpBB bb, double m )
{
	return cpBBNew( bb.l - m, bb.b - m, bb.r + m, bb.t + m );
}

/// The character's size: the larger side of its box.
static inline float kcc_character_size( const kcc_controller* c )
{
	return kcc_maxf( c->local_bounds.max.x - c->local_bounds.min.x, c->local_bounds.max.y - c->local_bounds.min.y );
}

/// Result of casting the character against the candidates.
typedef struct kcc_sweep
{
	bool hit;                 ///< a contact was found (with kcc_sweep_floor: a walkable one)
	bool blocked;             ///< any contact limited the travel
	float travel;             ///< distance the character may move keeping the skin along every hit normal
	float distance;           ///< contact distance along the translation
	vec2s normal;             ///< unit, out of the obstacle
	vec2s point;              ///< on the obstacle, local frame
	kcc_candidate* candidate; ///< in the move's list (a box tile may not be converted yet: kcc_candidate_ready)
} kcc_sweep;

/// Most surfaces one move can be blocked by: max_slides in each part of a move split KCC_MAX_SPLIT_DEPTH times.
#define KCC_MAX_MOVE_PLANES ( KCC_MAX_SLIDES << KCC_MAX_SPLIT_DEPTH )

/// Every surface that blocked a move (bodies pushed along excepted), in the order met, whatever the result reports:
/// each piece's slide reads its own (the creases), move_and_slide's velocity clip all of them.
typedef struct kcc_plane_list
{
	int count;
	vec2s normals[KCC_MAX_MOVE_PLANES];  ///< unit, out of the surface
	uint32_t kinds[KCC_MAX_MOVE_PLANES]; ///< KCC_KIND_FLOOR, KCC_KIND_WALL or KCC_KIND_CEILING
} kcc_plane_list;

/// The scratch of one move: what its queries found and converted, in a local frame, and the surfaces that blocked it.
/// A thread owns a context while it moves a character: single calls use their space's (one thread uses a space at a
/// time), each worker of a batch its own. Nothing in it outlives the move.
struct kcc_move_context
{
	/// On lines of its own: a batch's workers write their contexts at once.
	_Alignas( KCC_CACHE_LINE ) vec2s origin; ///< world position the local frame is centred on
	kcc_aabb region;         ///< what the candidates cover (local frame): every shape meeting it was found
	int region_growths;      ///< queries that grew the region since the last gather
	bool region_truncated;   ///< the region could not grow (overflow or budget): a shape may have been missed
	bool gather_known;       ///< inside kcc_world_cover: shapes meeting gather_known_bb are candidates already
	bool gather_solids;      ///< the gather keeps only the shapes that block
	cpBB gather_known_bb;
	bool has_sensors;        ///< a sensor is among the candidates
	bool static_from_index;  ///< the current query takes static shapes from the static index, not from Chipmunk
	bool clip_query;         ///< Chipmunk's query covers more than clip_box (the stale cells): keep what meets clip_box
	cpBB clip_box;
	int candidate_count;
	int candidate_found;     ///< shapes the last gather met, kept or not
	bool candidate_overflow; ///< the last gather met more shapes than the character's max_candidates
	int capacity;            ///< entries of candidates: at least the max_candidates of every controller of the space
	kcc_candidate* candidates; ///< owned
	bool moved_unpending;    ///< a batch move on this context moved a body whose shapes were not pending (cleared by
							 ///< each batch)
	kcc_plane_list planes;   ///< every surface that blocked the move (the velocity clip's)
};

/// Options of the slide response (copied from the def).
typedef struct kcc_slide_params
{
	vec2s up;
	bool grounded;            ///< KCC_MODE_GROUNDED
	bool stop_on_slope;
	bool constant_speed_on_slopes;
	bool slide_on_ceiling;
	bool on_floor;            ///< the character stands on a floor in this move (gravity does not slide it down walls)
	bool leaving;             ///< the move leaves the floor it stood on (a jump)
} kcc_slide_params;

// registry.c ------------------------------------------------------------------------------------------------------

/// Adds a new controller to the live set (false when memory ran out).
bool kcc_registry_add( kcc_controller* c );
/// Removes c from the live set; false when it was not there (destroyed already, or never a controller).
bool kcc_registry_remove( kcc_controller* c );
/// Whether c is a live controller.
bool kcc_registry_contains( const kcc_controller* c );
/// Marks the controller's space in use by this call; false when another call (another thread) uses it already.
bool kcc_space_enter( kcc_space_watch* watch );
void kcc_space_leave( kcc_space_watch* watch );

// controller.c ----------------------------------------------------------------------------------------------------

/// Whether c may be used by a public call: not NULL and, in builds with asserts, alive. Asserts with the message
/// that fits otherwise. KCC_USABLE names the calling function in those messages. Inline: a batch asks it of every move.
static inline bool kcc_controller_usable( const kcc_controller* c, const char* null_message,
										  const char* destroyed_message )
{
	(void)null_message;
	(void)destroyed_message;
	if ( c == NULL )
	{
		KCC_ASSERT( false, null_message );
		return false;
	}
#if defined( KCC_ENABLE_ASSERT )
	if ( kcc_registry_contains( c ) == false )
	{
		KCC_ASSERT( false, destroyed_message );
		return false;
	}
#endif
	return true;
}
#define KCC_USABLE( c, function )                                                                                 \
	kcc_controller_usable( c, function ": controller is NULL",                                                    \
						   function ": the controller was destroyed (used after kcc_controller_destroy)" )

/// Whether this call may use the controller's space: KCC_ERROR_SPACE_LOCKED (and an assert with the message that
/// fits) when Chipmunk has it locked (a callback, or another thread querying or stepping it) or, in builds with
/// asserts, when another controller's call uses it on another thread. KCC_OK must be paired with kcc_space_release.
kcc_status kcc_space_acquire( kcc_controller* c, const char* locked_message, const char* busy_message );
void kcc_space_release( kcc_controller* c );
#define KCC_SPACE_ACQUIRE( c, function )                                                                           \
	kcc_space_acquire( c, function ": the space is locked (a Chipmunk callback, or another thread querying or "     \
								   "stepping it): use one cpSpace from one thread at a time",                      \
					   function ": another thread is using this cpSpace: moves, queries and steps on one space "  \
								"must run on one thread at a time" )

/// KCC_OK when p is finite and within max_coordinate (inline: every move checks its end).
static inline kcc_status kcc_validate_position( const kcc_controller* c, vec2s p )
{
	if ( kcc_is_valid_vec2( p ) == false )
	{
		return KCC_ERROR_NOT_FINITE;
	}
	if ( fabsf( p.x ) > c->def.max_coordinate || fabsf( p.y ) > c->def.max_coordinate )
	{
		return KCC_ERROR_TOO_LARGE;
	}
	return KCC_OK;
}
/// The slide options of the controller's def.
static inline kcc_slide_params kcc_slide_params_of( const kcc_controller* c )
{
	kcc_slide_params p;
	p.up = c->def.up;
	p.grounded = c->def.mode == KCC_MODE_GROUNDED;
	p.stop_on_slope = c->def.stop_on_slope;
	p.constant_speed_on_slopes = c->def.constant_speed_on_slopes;
	p.slide_on_ceiling = c->def.slide_on_ceiling;
	p.on_floor = false;
	p.leaving = false;
	return p;
}

// slide.c ---------------------------------------------------------------------------------------------------------

/// v with its component into the plane of normal n removed (unchanged when it does not point into the plane).
vec2s kcc_clip_vector( vec2s v, vec2s n );

/// What moves along a walkable floor of normal n when v is applied, GROUNDED (stop_on_slope: the lateral part only).
vec2s kcc_floor_response( const kcc_slide_params* p, vec2s v, vec2s n );

/// Classify a contact normal: KCC_KIND_FLOOR, KCC_KIND_WALL or KCC_KIND_CEILING (FLOATING: always a wall).
static inline uint32_t kcc_classify_normal( vec2s normal, vec2s up, float cos_floor, kcc_motion_mode mode )
{
	if ( mode == KCC_MODE_FLOATING )
	{
		return KCC_KIND_WALL;
	}
	if ( kcc_within_floor_angle( normal, up, cos_floor ) )
	{
		return KCC_KIND_FLOOR;
	}
	return kcc_within_floor_angle( normal, glms_vec2_negate( up ), cos_floor ) ? KCC_KIND_CEILING : KCC_KIND_WALL;
}

/// The motion that remains after hitting a surface of normal/kind with remaining motion left of the move whose
/// input was delta. planes holds the normals met earlier in this move (checked for creases). Never points
/// against delta (Quake rule), never into any plane.
vec2s kcc_slide_remaining( const kcc_slide_params* params, const vec2s* planes, int plane_count, vec2s delta,
						   vec2s remaining, vec2s normal, uint32_t kind );

/// Velocity-level clip of move_and_slide: removes the part of v pushing into the move's planes, all at once.
vec2s kcc_clip_velocity( const kcc_slide_params* params, vec2s velocity, const kcc_plane_list* planes, bool on_floor,
						 vec2s floor_normal );

// world.c (the only file that calls Chipmunk) ---------------------------------------------------------------------

/// Creates the kinematic body and the Chipmunk shape and adds both to the space. False on failure (nothing left).
bool kcc_world_create( kcc_controller* c );
/// Replaces the controller's Chipmunk shape by one of its (new) local shape. False on failure (nothing changed).
bool kcc_world_replace_shape( kcc_controller* c );
/// Removes the body and shape from the space (when there) and frees them.
void kcc_world_destroy( kcc_controller* c );
/// One bounding box query over region (local frame). Fills c->move->candidates; sets candidate_overflow when more
/// shapes were found than fit (the caller then splits the move).
void kcc_world_gather( kcc_controller* c, kcc_aabb region );
/// As kcc_world_gather, keeping only the shapes that block the character (no sensors).
void kcc_world_gather_solids( kcc_controller* c, kcc_aabb region );
/// kcc_world_cover when box leaves the region queried so far: one query over the grown region adds the shapes not
/// found yet (the candidates already there stay where they are: pointers to them remain valid). At most
/// KCC_MAX_REGION_GROWTHS per gather; beyond, region_truncated.
void kcc_world_grow( kcc_controller* c, kcc_aabb box );
/// A Chipmunk shape as the conversion reads it, in world coordinates: what does not depend on the character.
typedef struct kcc_shape_reading
{
	kcc_shape_type type; ///< CIRCLE, CAPSULE, POLYGON, or INVALID (NaN or infinite data: left out of moves)
	float radius;        ///< rounding radius
	int count;           ///< POLYGON: Chipmunk's vertex count (kcc_read_polygon_vertices reads them)
	cpVect a, b;         ///< CIRCLE: the centre (a); CAPSULE: the core segment
} kcc_shape_reading;
/// Reads a shape (bb: its bounding box) as kcc_world_convert does (chipmunk_shapes.c).
kcc_shape_reading kcc_read_shape( const cpShape* shape, cpBB bb );
/// The world vertices of a polygon shape of count vertices, as kcc_world_convert computes them.
void kcc_read_polygon_vertices( const cpShape* shape, int count, cpVect* out );
/// Fills candidate->core (once per move). A polygon of more than KCC_MAX_POLYGON_VERTICES vertices adds its other
/// fan pieces to the candidates (chipmunk_shapes.c).
void kcc_world_convert( kcc_controller* c, kcc_candidate* candidate );

/// A candidate's roles from its shape's filter categories: roles need an explicit category (a shape in every
/// category, Chipmunk's default filter, is a plain solid, or a wall left at the default would be one-way to every def
/// with a role mask).
static inline void kcc_candidate_roles( const kcc_controller* c, kcc_candidate* candidate, cpBitmask categories )
{
	bool roles = categories != CP_ALL_CATEGORIES;
	candidate->one_way = roles && ( categories & c->def.one_way_categories ) != 0;
	candidate->pushable = roles && ( categories & c->def.pushable_categories ) != 0;
}
/// The body of a candidate's shape; NULL for a static shape of the static index (its shape is never dereferenced).
const cpBody* kcc_world_shape_body( const kcc_candidate* candidate );
/// The candidate's body when it is kinematic (a moving platform), else NULL.
const cpBody* kcc_world_kinematic_body( const kcc_candidate* candidate );
/// body when a body with this pointer value is in the controller's space (compared by value, never read), else NULL.
const cpBody* kcc_world_find_body( const kcc_controller* c, const cpBody* body );
/// Position and angle of a body found in this move's query.
void kcc_world_body_pose( const cpBody* body, cpVect* position, double* angle );
/// Moves a kinematic body found in this move's query by offset (the local frame's units), reindexes its shapes and
/// refreshes their candidates.
void kcc_world_move_body( kcc_controller* c, const cpBody* body, vec2s offset );
/// The impulse of an inelastic contact (normal out of the body, at a world point) between a character of def.mass
/// moving at velocity and body (from this move's query; NULL: none), when that body is dynamic and the two close in.
void kcc_world_impulse( kcc_controller* c, const cpBody* body, vec2s velocity, vec2s point, vec2s normal );
/// Chipmunk's surface velocity of a candidate's shape (a conveyor belt), zero on a dynamic body
/// (chipmunk_shapes.c).
vec2s kcc_world_surface_velocity( const kcc_candidate* candidate );
/// Chipmunk's velocity of a body found in this move's query, at a world point.
vec2s kcc_world_body_velocity( const cpBody* body, cpVect point );
/// Moves the body to the controller's position and reindexes its shape so queries see it (in a batch: moves it and
/// updates its shape's box; the batch reindexes it at its end).
void kcc_world_sync_body( kcc_controller* c );
/// Whether c's queries read more of shape than its filter and sensor flag (which a batch never changes): Chipmunk's
/// filter rule with the query's filter, and the gather's own test of the character's filter.
bool kcc_world_may_read( const kcc_controller* c, const cpShape* shape, cpShapeFilter f, bool sensor );
/// Reindexes a shape moved since Chipmunk indexed it at box old (its box then), and clears the dead entries left there.
void kcc_world_reindex_shape( cpSpace* space, cpShape* shape, cpBB old );
/// Reindexes the character's own shape outside its moves (a batch's end, kcc_space_sync; old: its box in the index):
/// as kcc_world_sync_body does, but the dead entries Chipmunk's spatial hash leaves are cleared now or with later ones.
void kcc_world_reindex_owned( kcc_controller* c, cpBB old );
/// The live controller whose own shape this is, or NULL.
kcc_controller* kcc_world_character_of( const cpShape* shape );
/// Clears the dead entries Chipmunk's spatial hash keeps in the cells of box old after a reindex (a query of it).
void kcc_world_clear_dead( cpSpace* space, cpBB old );

/// Whether the move's query covers box (local frame): kcc_world_cover then has nothing to do.
static inline bool kcc_world_covers( const kcc_controller* c, kcc_aabb box )
{
	const kcc_aabb* r = &c->move->region;
	return box.min.x >= r->min.x && box.min.y >= r->min.y && box.max.x <= r->max.x && box.max.y <= r->max.y;
}

/// Makes sure the candidates hold every shape meeting box (local frame): nothing to do in the common case, where the
/// move's query covers it.
static inline void kcc_world_cover( kcc_controller* c, kcc_aabb box )
{
	if ( kcc_world_covers( c, box ) == false )
	{
		kcc_world_grow( c, box );
	}
}

// context.c -------------------------------------------------------------------------------------------------------

/// Grows ctx's candidate buffer to capacity entries (outside moves: it allocates). False when memory ran out (ctx
/// unchanged).
bool kcc_move_context_reserve( kcc_move_context* ctx, int capacity );
void kcc_move_context_free( kcc_move_context* ctx );

// huge_pages.c -----------------------------------------------------------------------------------------------------

/// kcc_alloc for an array the moves read at random (freed with kcc_free): a large one asks the OS for huge pages.
void* kcc_alloc_walked( size_t size );

// static_index.c ----------------------------------------------------------------------------------------------------

/// The static index of space, shared by its controllers: built for the first (it allocates), rebuilt by
/// kcc_space_static_changed, freed with the last. It also keeps what else a space's controllers share (the single
/// calls' move context, the batches' snapshot). NULL when memory ran out; when only the index's arrays could not be
/// allocated, it is returned not ready (the moves then read statics from Chipmunk).
kcc_static_index* kcc_static_index_acquire( cpSpace* space );
void kcc_static_index_release( kcc_static_index* index );
/// Chipmunk's area of a static shape of the index, bit for bit (a key of the candidates' geometric sort).
double kcc_static_shape_area( const kcc_static_shape* shape );
/// Chipmunk's surface velocity of a static shape of the index (a conveyor belt), zero for most.
cpVect kcc_static_shape_surface_velocity( const kcc_static_shape* shape );

/// Called with each static shape meeting the query box, once; returns false to stop the query.
typedef bool kcc_static_visit( const kcc_static_shape* shape, void* data );
/// Visits the static shapes whose bounding box meets box and whose filter passes filter (Chipmunk's rule), in an
/// order that depends only on the index. Reads only the index: any number of threads may query it at once.
void kcc_static_index_query( const kcc_static_index* index, cpBB box, cpShapeFilter filter, kcc_static_visit* visit,
							 void* data );

/// Where the space's batch snapshot is kept (freed with the index).
kcc_snapshot** kcc_static_index_snapshot( kcc_static_index* index );
/// The index of space, or NULL when no controller uses it (no user added: valid while a controller lives).
kcc_static_index* kcc_static_index_find( const cpSpace* space );

// snapshot.c --------------------------------------------------------------------------------------------------------

typedef struct kcc_snapshot_body
{
	const cpBody* body;
	int first_shape;  ///< its shapes: shapes[first_shape .. first_shape + shape_count)
	int shape_count;
	int mover;        ///< the batch move that moved it last (-1: not moved)
	uint32_t seq;     ///< when in that move
	_Atomic uint32_t pending; ///< the snapshot's stamp when its shapes wait in the pending list for Chipmunk's index
							  ///< (an older stamp: they do not; kcc_snapshot_body_pending). Atomic: workers marking
							  ///< two shapes of one body write it at once (the same stamp)
	kcc_controller* controller; ///< a character's body (kinematic: its controller made it), while listed in the same
								///< place: that controller, where its one shape is read. Else NULL.
} kcc_snapshot_body;

/// What listing a share of a batch's moves found (batch.c's kcc_batch_list_task): OR-ed filters and counts, merged
/// after the shares. One per worker, each on lines of its own.
typedef struct kcc_batch_listing
{
	_Alignas( KCC_CACHE_LINE ) cpShapeFilter readers; ///< the characters' filters
	cpBitmask sensor_mask;                            ///< their sensor masks
	cpShapeFilter writable_solids, writable_sensors;
	cpBitmask pushable;
	int pushers;
	int characters_read; ///< characters' shapes read from their controllers (kcc_snapshot_read_character)
	int characters_readable; ///< of those, the ones the last batch's readers may read
	bool repeated;       ///< a controller was given twice
	bool bad;            ///< a move's controller or input failed its checks
} kcc_batch_listing;

/// A shape a batch moved whose place in Chipmunk's index waits for kcc_space_sync (deferred sync).
typedef struct kcc_pending_shape
{
	const cpBody* body; ///< identity only until found in the space again
	cpShape* shape;     ///< identity only until found on body again
	cpBB indexed;       ///< where Chipmunk's index holds it
	int body_hint;      ///< where the last batch found the body and the shape (in bodies and shapes): checked before
	int shape_hint;     ///< searching, as the space usually lists the same bodies in the same order
} kcc_pending_shape;

typedef struct kcc_snapshot_shape
{
	cpShape* shape;
	cpBB indexed;     ///< its box when the batch began (where Chipmunk's index holds it)
	cpBB grid;        ///< every place it can be during the batch: the box the grid holds it by
	int body;         ///< in bodies
	int cells[4];     ///< the grid cells of grid, when the grid lists it: first and last column, first and last row
	bool writable;    ///< a batch move may move it (a pushable box, a character of the batch)
	bool loose;       ///< left its grid box in an array-order batch: found through loose, no longer by its grid cells
	bool sensor;      ///< Chipmunk's sensor flag and filter, read once per batch (they do not change during it)
	bool readable;    ///< a move of the batch may read it (kcc_snapshot_build_grid): else it is in no grid cell, as
					  ///< when its grid box is not finite
	cpShapeFilter filter;
	int wave;         ///< the last wave whose moves may touch it
} kcc_snapshot_shape;

/// The non-static shapes of a space for one batch (snapshot.c), kept per space and grown only when too small.
struct kcc_snapshot
{
	cpSpace* space;
	bool waves;                ///< this batch moves in waves (influence boxes set); else in array order
	bool fixed;                ///< reading the space must not grow the arrays (a sync inside a move)
	kcc_snapshot_body* bodies; ///< in cpSpaceEachBody's order
	int body_count, body_capacity;
	int* sorted;               ///< body indices by pointer value (finding a body)
	int sorted_capacity;
	int sorted_count;          ///< bodies sorted (of the last read that did not fail: kept when the next lists the same
							   ///< bodies)
	bool same_bodies;
	int dynamic_count;         ///< dynamic bodies read (without any, the batch gives no impulses)
	uint32_t stamp;            ///< bumped by each read (never 0): a controller given twice carries this batch's stamp
							   ///< already, and a body pending carries it as pending
	int character_count;       ///< bodies read whose one shape is their controller's (kcc_snapshot_read_character)
	int* others;               ///< the other bodies read (indices into bodies, in order), other_count of them
	int other_count, other_capacity;
	cpShapeFilter readers_guess; ///< the last batch's readers: kcc_snapshot_read_character marks a character's shape
								 ///< readable by them (a game's batches keep the same readers)
	bool characters_hidden;    ///< the readers are readers_guess and reject every character's shape: the grid looks
							   ///< only at the other bodies' shapes
	int walkers;               ///< the batch's moves that walk (kcc_snapshot_walks: set with the influence boxes)
	int* order;                ///< the moved bodies in reindexing order (kcc_snapshot_order_moved)
	int order_capacity;
	kcc_snapshot_shape* shapes;
	int shape_count, shape_capacity;
	int* slots;                ///< scratch of the batch's end
	int slot_capacity;
	bool grid_ready;
	cpBB bounds;
	double inverse_cell;
	int columns, rows;
	uint32_t* cell_start;      ///< columns * rows + 1
	int cell_capacity;
	uint32_t* entries;
	int entry_capacity;
	const int* moved_first;    ///< in slots: mover m's moved bodies are order[moved_first[m] .. moved_first[m + 1])
	int* crates;               ///< the shapes a batch move may push (indices into shapes)
	int crate_count, crate_capacity;
	int* listed;               ///< the shapes the grid lists, in order (indices into shapes)
	int listed_count, listed_capacity;
	int* loose;                ///< the shapes that left their grid boxes in an array-order batch (indices into shapes)
	int loose_count, loose_capacity;
	kcc_pending_shape* pending; ///< moved by deferred batches, not reindexed yet, in the order to reindex them
	int pending_count, pending_capacity;
	bool pending_marked;        ///< this batch's listing marked the pending bodies (kcc_snapshot_mark_pending)
	cpShapeFilter writable_solids;  ///< categories and masks OR-ed over the shapes moves may move, sensors apart
	cpShapeFilter writable_sensors; ///< (the waves' quick test)
	cpShapeFilter readers;        ///< categories and masks OR-ed over the filters of the batch's characters, and over
	cpShapeFilter sensor_readers; ///< their sensor masks for sensors (every category until the batch sets them): a
								  ///< shape they reject, no move reads; it stays out of the grid
	int wave_count;            ///< of the last batch (0: it ran in array order on the calling thread)
	int largest_wave;
	kcc_move_context* contexts; ///< one per worker (the batch's moves run in them)
	kcc_batch_listing* listings; ///< one per worker (what each found listing its share of the batch's moves)
	int context_count;
};

typedef void kcc_snapshot_visit( cpShape* shape, void* data );
/// Whether the query reads the shape further (its filter and the gather's own tests on what a batch never changes).
typedef bool kcc_snapshot_reads( const kcc_snapshot_shape* shape, void* data );
/// Reads the space's kinematic and dynamic bodies and their shapes (grid boxes = their boxes); room for a batch of
/// slot_count moves. False when memory ran out.
bool kcc_snapshot_read( kcc_snapshot* s, cpSpace* space, int slot_count );
/// kcc_snapshot_read in three parts, so that the shapes may be read on the batch's workers. First the bodies, on the
/// calling thread (Chipmunk locks the space to list them), with their shapes when shapes; false when memory ran out.
/// Without shapes, same_bodies then tells whether the space lists the bodies of the last read in the same order:
/// their shapes' places are then known. A new stamp begins with each read.
bool kcc_snapshot_read_bodies( kcc_snapshot* s, cpSpace* space, bool shapes );
/// With same_bodies: reads the shapes of bodies others[start .. end) into their known places (pure reads of Chipmunk:
/// disjoint ranges on any threads at once). The character_count characters' bodies are not among the others: their
/// shapes are read from their controllers (kcc_snapshot_read_character, kcc_snapshot_read_characters). False when a
/// body's shapes are no longer those of the last read.
bool kcc_snapshot_read_shapes( kcc_snapshot* s, int start, int end );
/// After kcc_snapshot_read_bodies: reads the one shape of character body b (its controller is bodies[b].controller)
/// into its place, from the controller, readable as readers_guess says. It writes only what a character's move
/// changes (the shape's boxes, filter and batch marks, the body's move), so that workers may read its identity
/// meanwhile (kcc_snapshot_mark_pending). True when readers_guess may read it.
bool kcc_snapshot_read_character( kcc_snapshot* s, int b );
/// kcc_snapshot_read_character for every character body whose controller this read's batch did not list (its
/// batch_stamp is not the snapshot's stamp). Returns how many of those readers_guess may read.
int kcc_snapshot_read_characters( kcc_snapshot* s );
/// The rest, on the calling thread: every body's shapes first, unless shapes_read; kcc_snapshot_keep_pending when
/// keep_pending (else left to the caller). False when memory ran out.
bool kcc_snapshot_read_end( kcc_snapshot* s, bool shapes_read, int slot_count, bool keep_pending );
/// The last part of a read: keeps the pending shapes still in the space, their bodies marked pending. It writes only
/// the pending list and the bodies' pending flags, which no move reads: a batch runs it while its moves run.
void kcc_snapshot_keep_pending( kcc_snapshot* s );
/// kcc_snapshot_keep_pending's common case, for a share of the pending list on one worker: marks the bodies of pending
/// shapes [start, end) pending when each is where its hints say (in any share of the bodies: the mark is atomic).
/// False when a shape needs kcc_snapshot_keep_pending.
bool kcc_snapshot_mark_pending( kcc_snapshot* s, int start, int end );
/// Before c's body is freed (another body may be made at its address) or when its shape is replaced (its place holds
/// the old one): its place in the snapshot no longer says it is a character's, and the next read reads it afresh.
void kcc_snapshot_forget_character( const kcc_controller* c );
/// The index of body in s->bodies, or -1 (compared by value, never read).
int kcc_snapshot_body_index( const kcc_snapshot* s, const cpBody* body );
/// Adds shape to the crates (the shapes a batch move may push; writable). False when memory ran out (then the batch
/// runs as sequential calls).
bool kcc_snapshot_add_crate( kcc_snapshot* s, int shape );
/// OR-s filter's categories and mask into into's (the batch's summaries of many filters; groups aside).
static inline void kcc_filter_join( cpShapeFilter* into, cpShapeFilter filter )
{
	into->categories |= filter.categories;
	into->mask |= filter.mask;
}
/// Whether body b's shapes wait in the pending list (marked so since this read began).
static inline bool kcc_snapshot_body_pending( const kcc_snapshot* s, const kcc_snapshot_body* b )
{
	return atomic_load_explicit( &b->pending, memory_order_relaxed ) == s->stamp;
}
/// Marks body b's shapes as waiting in the pending list (stamp: the snapshot's), or not (0, a stamp no read has).
static inline void kcc_snapshot_set_pending( kcc_snapshot_body* b, uint32_t stamp )
{
	atomic_store_explicit( &b->pending, stamp, memory_order_relaxed );
}
/// Marks sh as a shape a batch move may move, its filter joining solids or sensors (the writable filters).
static inline void kcc_snapshot_mark_writable( kcc_snapshot_shape* sh, cpShapeFilter* solids, cpShapeFilter* sensors )
{
	sh->writable = true;
	kcc_filter_join( sh->sensor ? sensors : solids, sh->filter );
}
/// Marks shape as one a batch move may move, its filter joining the writable filters (for kcc_snapshot_walks).
static inline void kcc_snapshot_set_writable( kcc_snapshot* s, int shape )
{
	kcc_snapshot_mark_writable( s->shapes + shape, &s->writable_solids, &s->writable_sensors );
}
/// Chipmunk's filter rule (groups aside) between the readers' filter and a shape's. On OR-ed categories and masks (a
/// batch's readers, or its writable shapes), it rejects only when it rejects every pair.
static inline bool kcc_filter_reads( cpShapeFilter readers, cpShapeFilter filter )
{
	return ( filter.categories & readers.mask ) != 0 && ( readers.categories & filter.mask ) != 0;
}
/// Chipmunk's whole filter rule: a shared non-zero group never collides, and each side's categories must be in the
/// other's mask.
static inline bool kcc_filter_rejects( cpShapeFilter a, cpShapeFilter b )
{
	return ( a.group != 0 && a.group == b.group ) || kcc_filter_reads( a, b ) == false;
}
/// Whether a move of the batch may read sh (kcc_filter_reads).
static inline bool kcc_snapshot_readable( const kcc_snapshot* s, const kcc_snapshot_shape* sh )
{
	return kcc_filter_reads( sh->sensor ? s->sensor_readers : s->readers, sh->filter );
}
/// Puts the shapes a move of the batch may read (kcc_snapshot_readable) in the grid by their grid boxes. False when
/// memory ran out.
bool kcc_snapshot_build_grid( kcc_snapshot* s );
/// kcc_snapshot_query where the grid or the loose list holds shapes.
void kcc_snapshot_query_shapes( const kcc_snapshot* s, cpBB box, cpShapeFilter filter, kcc_snapshot_reads* reads,
								kcc_snapshot_visit* visit, void* data );
/// What cpSpaceBBQuery( box, filter ) would visit among the snapshot's shapes (reads may drop more), the shapes' boxes
/// read live; in the snapshot's order. Shapes whose grid box misses box are never read, nor, beyond what reads looks
/// at, those filter or reads drops. After kcc_snapshot_build_grid. Inline: where no move may read a moving shape
/// (characters that ignore each other, no crates), every move's query finds nothing without a call.
static inline void kcc_snapshot_query( const kcc_snapshot* s, cpBB box, cpShapeFilter filter, kcc_snapshot_reads* reads,
									   kcc_snapshot_visit* visit, void* data )
{
	// Only listed shapes are in the grid's cells, and only those leave their grid boxes (loose).
	if ( s->listed_count > 0 || s->loose_count > 0 )
	{
		kcc_snapshot_query_shapes( s, box, filter, reads, visit, data );
	}
}
/// Records that c's batch move moved body b (an index in bodies, or -1: none), the next in its move. Inline: every
/// move of a batch calls it.
static inline void kcc_snapshot_note_moved( kcc_controller* c, int b )
{
	kcc_snapshot* s = c->batch;
	if ( b < 0 )
	{
		return;
	}
	s->bodies[b].mover = c->batch_mover;
	s->bodies[b].seq = c->batch_seq++;
	// The pending marks are final during the moves when the listing made them (else kcc_snapshot_keep_pending may run
	// beside the first wave, and kcc_snapshot_moved_unpending looks at the bodies at the end instead).
	if ( s->pending_marked && kcc_snapshot_body_pending( s, s->bodies + b ) == false )
	{
		c->move->moved_unpending = true;
	}
	// In array order a shape that leaves its grid box is read from loose from then on, wherever it goes. Waves instead
	// list it by every place it can reach.
	for ( int k = 0; k < s->bodies[b].shape_count && s->waves == false; ++k )
	{
		kcc_snapshot_shape* sh = s->shapes + s->bodies[b].first_shape + k;
		if ( sh->loose == false && sh->readable && cpBBContainsBB( sh->grid, cpShapeGetBB( sh->shape ) ) == false )
		{
			sh->loose = true;
			s->loose[s->loose_count++] = s->bodies[b].first_shape + k;
		}
	}
}
/// Orders the bodies the batch moved by the move that moved them last, and within it as they were moved.
void kcc_snapshot_order_moved( kcc_snapshot* s, int mover_count );
/// Reindexes the bodies mover moved last (after kcc_snapshot_order_moved), as its sequential call would have; with
/// deferred sync, adds their shapes to the pending list instead (those not pending already).
void kcc_snapshot_reindex_mover( kcc_snapshot* s, kcc_controller* c, int mover, bool deferred );
/// Whether the batch moved a body whose shapes are not pending (with deferred sync, kcc_snapshot_reindex_mover then
/// has something to list): as its moves noted on their contexts when the listing marked the pending bodies.
bool kcc_snapshot_moved_unpending( const kcc_snapshot* s );
/// The space's snapshot, made when first asked for (NULL when memory ran out).
kcc_snapshot* kcc_snapshot_of( kcc_static_index* index );
/// Reindexes the pending shapes still in the space, in their order, and empties the list. grow false (inside a move):
/// when telling which are still there would need more memory than the snapshot has, every non-static body instead.
void kcc_snapshot_sync( kcc_snapshot* s, cpSpace* space, bool grow );
/// The batch is over: the next one reads the space again.
void kcc_snapshot_spent( kcc_snapshot* s );
/// Whether c's queries may read a shape a batch move may move (after every kcc_snapshot_set_writable): only then does
/// its wave depend on the moves that share its influence box.
bool kcc_snapshot_walks( const kcc_snapshot* s, const kcc_controller* c );
/// Whether some move of the batch may read a shape a batch move may move (when not, kcc_snapshot_walks is false for
/// every move).
bool kcc_snapshot_any_walks( const kcc_snapshot* s );
/// The grid entries kcc_snapshot_wave walks for c when it walks (its influence box's cells), counted without walking
/// them.
int64_t kcc_snapshot_wave_work( const kcc_snapshot* s, const kcc_controller* c );
/// The wave of the next move in array order, c's: one more than that of every earlier move that touched a shape it may
/// touch (its own, and the moving shapes its queries may read in its influence box); recorded for the later ones.
int kcc_snapshot_wave( kcc_snapshot* s, const kcc_controller* c );
void kcc_snapshot_free( kcc_snapshot* s );

// sweep.c ---------------------------------------------------------------------------------------------------------

/// The character shape at local position p.
void kcc_character_at( const kcc_controller* c, vec2s p, kcc_shape* out );
/// A (valid) circle, capsule or polygon moved by p, without kcc_shape_translate's validation.
void kcc_shape_at( const kcc_shape* s, vec2s p, kcc_shape* out );
/// Lowest value of dot( x, d ) over a circle, capsule or polygon (rounding included).
float kcc_shape_lowest_along( const kcc_shape* s, vec2s d );
/// Extent of a circle, capsule or polygon along up (its height).
float kcc_shape_height_along( const kcc_shape* s, vec2s up );
/// kcc_shape_lowest_along for the character at local position p (its trailing edge along d).
float kcc_character_lowest_along( const kcc_controller* c, vec2s p, vec2s d );
/// The candidate with its core converted (once per move).
kcc_candidate* kcc_candidate_ready( kcc_controller* c, kcc_candidate* candidate );
/// Deterministic order among equal results: the shape's bounding box, then the polygon piece, then the query's
/// order. Never a pointer value.
bool kcc_candidate_before( const kcc_candidate* a, const kcc_candidate* b );
/// Casts the character from local position from along translation against the blocking candidates.
kcc_sweep kcc_sweep_character( kcc_controller* c, vec2s from, vec2s translation );
/// As kcc_sweep_character, but the reported contact is the first walkable floor (travel still respects every hit);
/// point false: its point may be left at zero (the caller reads the distance, normal and candidate only).
kcc_sweep kcc_sweep_floor( kcc_controller* c, vec2s from, vec2s translation, bool point );

// one_way.c -------------------------------------------------------------------------------------------------------

/// Whether a one-way candidate blocks a contact of normal n at point (local frame) for a character starting at
/// local position from: a floor normal, and the character's lowest point was not below the contact.
bool kcc_one_way_blocks( const kcc_controller* c, vec2s from, vec2s normal, vec2s point );
/// Whether an overlap of depth along normal (out of the shape) with a one-way candidate is the character on its top
/// (the candidate blocks): a floor normal, and the character came from above: it stood on the shape at the last move
/// (at most the tolerance deep), or the shape came up into it since the last move, which ended clear of every one-way
/// shape. Otherwise it is passing through and the shape is ignored.
bool kcc_one_way_on_top( const kcc_controller* c, const kcc_candidate* cand, vec2s normal, float depth );
/// kcc_one_way_update for a character with one-way categories.
void kcc_one_way_update_categories( kcc_controller* c, vec2s p );
/// After a move (or a teleport) at local position p: whether the character ends inside a one-way shape, and the end
/// of a drop-through once the character is clear of the dropped shape. Inline: without one-way categories there is
/// nothing to do.
static inline void kcc_one_way_update( kcc_controller* c, vec2s p )
{
	c->one_way_inside = false;
	if ( c->def.one_way_categories != 0 )
	{
		kcc_one_way_update_categories( c, p );
	}
}

// depenetrate.c ---------------------------------------------------------------------------------------------------

/// Depenetration at local position p. Returns the pushed position; sets *pushed / *crushed.
vec2s kcc_depenetrate( kcc_controller* c, vec2s p, bool* pushed, bool* crushed );
/// The box whose candidates a depenetration round reads (it covers it first), for the character's bounds there.
static inline kcc_aabb kcc_depenetrate_box( const kcc_controller* c, kcc_aabb bounds )
{
	return kcc_aabb_inflate( bounds, c->def.skin );
}
/// Whether a depenetration round looks at cand for the character's bounds (it may block there).
static inline bool kcc_depenetrate_meets( const kcc_candidate* cand, kcc_aabb bounds )
{
	return cand->blocks && kcc_aabb_overlaps_aabb( bounds, cand->bounds );
}
/// Whether kcc_depenetrate at local position p returns p at once: its first round's box is covered already and it
/// meets no candidate there (most moves: resting within the skin, in the air).
static inline bool kcc_depenetrate_clear( const kcc_controller* c, vec2s p )
{
	kcc_aabb bounds = kcc_aabb_offset( c->local_bounds, p );
	if ( kcc_world_covers( c, kcc_depenetrate_box( c, bounds ) ) == false )
	{
		return false;
	}
	for ( int i = 0; i < c->move->candidate_count; ++i )
	{
		if ( kcc_depenetrate_meets( c->move->candidates + i, bounds ) )
		{
			return false;
		}
	}
	return true;
}
/// Queries the solids around shape at local position p and tells whether it overlaps one by more than
/// KCC_OVERLAP_TOLERANCE of its height, or can not be shown clear of them (more than the buffer holds). One-way
/// shapes count only where the shape is not passing through them, or not at all. The candidates are replaced.
bool kcc_overlaps_solid( kcc_controller* c, const kcc_shape* shape, vec2s p, bool every_one_way_excepted );

// ground.c --------------------------------------------------------------------------------------------------------

typedef struct kcc_ground_result
{
	bool on_floor;
	bool snapped;
	vec2s position;     ///< local, after the snap
	vec2s normal;
	const kcc_candidate* floor;
} kcc_ground_result;

/// Resting tolerance beyond the skin: a character this close to a floor stands on it.
static inline float kcc_rest_tolerance( const kcc_controller* c )
{
	return 0.5f * c->def.skin;
}

/// Snap reach below the character for a move with this lateral length: walking down any walkable slope at speed
/// keeps contact.
static inline float kcc_snap_reach( const kcc_controller* c, float lateral_length )
{
	return c->def.snap_distance + lateral_length * c->tan_floor;
}

/// How far below the character the ground probe looks when it may not snap: the skin along the steepest floor
/// normal, plus the resting tolerance.
static inline float kcc_probe_reach( const kcc_controller* c )
{
	return kcc_skin_backoff( c->def.skin, c->cos_floor ) + kcc_rest_tolerance( c );
}

/// Ground probe at local position p: finds a walkable floor within reach below (cast along -up); snaps to it
/// keeping the skin when allow_snap, and reports resting contact within the skin in any case.
kcc_ground_result kcc_ground_probe( kcc_controller* c, vec2s p, float snap_reach, bool allow_snap );

typedef struct kcc_step_result
{
	bool stepped;
	vec2s position;     ///< local
	vec2s normal;       ///< floor normal where it landed
	const kcc_candidate* floor;
} kcc_step_result;

/// Step climbing from local position p: up by step_height, forward by lateral, down; lands only on walkable floor.
/// edge_normal: NULL when a riser (a wall) blocked lateral; else the walkable contact that did (a round bottom rolling
/// over a step's edge), and the tread must not be the same surface going on (a ramp's own surface is no step).
kcc_step_result kcc_try_step( kcc_controller* c, vec2s p, vec2s lateral, const vec2s* edge_normal );

// platform.c ------------------------------------------------------------------------------------------------------

typedef struct kcc_move_accumulator
{
	kcc_move_result* out; ///< optional
	kcc_move_result* path; ///< out, or NULL when nobody reads the path (move_and_slide's own result)
	float travel;         ///< path length of the earlier sub-moves
	uint32_t flags;       ///< flags met in earlier sub-moves (walls, ceilings, ...)
	vec2s wall_normal;    ///< the last wall contact's normal (when flags has KCC_ON_WALL)
	kcc_plane_list* planes; ///< the move's blocking planes (never NULL)
} kcc_move_accumulator;

/// Riding a kinematic body: carries the character by the body's motion since its last move.
void kcc_platform_carry( kcc_controller* c, kcc_move_accumulator* acc );
/// Standing on a conveyor belt: carries the character by the belt's velocity along the floor over dt.
void kcc_platform_belt( kcc_controller* c, float dt, kcc_move_accumulator* acc );
/// kcc_platform_remember on a floor that may move or carry (a Chipmunk shape, or a static one with a surface velocity).
void kcc_platform_remember_moving( kcc_controller* c, vec2s p, const kcc_candidate* floor );
/// After a move at local position p on floor (NULL: in the air): remembers a kinematic floor body to ride and the
/// floor's belt velocity. Inline: most floors are static shapes of the index without a surface velocity (no belt, no
/// body).
static inline void kcc_platform_remember( kcc_controller* c, vec2s p, const kcc_candidate* floor )
{
	c->platform = NULL;
	c->belt_velocity = kcc_v2( 0.0f, 0.0f );
	if ( floor != NULL && ( floor->source == NULL || floor->source->velocity_follows ) )
	{
		kcc_platform_remember_moving( c, p, floor );
	}
}
/// The velocity at the contact of c->platform (not NULL): the carry over the last dt when the character rode it through
/// the move, Chipmunk's velocity when it just landed on it.
vec2s kcc_platform_body_velocity( const kcc_controller* c, const cpBody* carried_by );
/// After a move: the floor body's velocity at the contact (zero off kinematic bodies) and the belt's.
static inline void kcc_platform_velocity_update( kcc_controller* c, const cpBody* carried_by )
{
	vec2s body = c->platform != NULL ? kcc_platform_body_velocity( c, carried_by ) : kcc_v2( 0.0f, 0.0f );
	c->platform_velocity = glms_vec2_add( body, c->belt_velocity );
}

// push.c ----------------------------------------------------------------------------------------------------------

/// Pushes a kinematic body (hit: its shape the character met) along push (local frame) as far as it goes, with the
/// pushable bodies in its way (at most KCC_MAX_PUSHED_BODIES), keeping the skin from what blocks them and from the
/// character at local position from. Returns how far the body hit moved.
vec2s kcc_push_body( kcc_controller* c, const cpBody* body, const kcc_candidate* hit, vec2s push, vec2s from );
/// After move_and_slide: impulses to the dynamic bodies met (the move's collisions), from an inelastic contact with a
/// character of def.mass.
void kcc_push_dynamic( kcc_controller* c, vec2s velocity, const kcc_collision* collisions, int count );

// corner.c --------------------------------------------------------------------------------------------------------

/// Corner correction: when the motion r from local position p was blocked by hit (travel relative to p) near the
/// character's edge (a jump against a ceiling's corner; in the air, a sideways move against a ledge's corner), the
/// position nudged around it by at most corner_correction, keeping the skin. False when there is none.
bool kcc_corner_nudge( kcc_controller* c, vec2s p, vec2s r, const kcc_sweep* hit, bool on_floor, vec2s* nudged );

// zones.c ---------------------------------------------------------------------------------------------------------

/// Whether the move may meet a zone: the character is inside some, or its candidates hold sensors. Without, there is
/// nothing to track (the common case: the callers test this and skip the call).
static inline bool kcc_zones_around( const kcc_controller* c )
{
	return c->zone_count > 0 || c->move->has_sensors;
}
/// Zone events along a path of character positions (local frame, count >= 1, the current candidates) that starts
/// travel along the move: updates the zones the character is inside and adds the events to acc->out. Only when
/// kcc_zones_around.
void kcc_zones_track( kcc_controller* c, const vec2s* path, int count, float travel, kcc_move_accumulator* acc );
/// Sensors overlapping the character at local position p, into out. Only when the candidates hold sensors (else
/// out's sensor count stays as kcc_controller_move cleared it: 0).
void kcc_zones_report( kcc_controller* c, vec2s p, kcc_move_result* out );

// move.c ----------------------------------------------------------------------------------------------------------

/// Where the character stands without moving it (after create and a teleport): the floor, and the platform to ride
/// from the next move on.
void kcc_detect_floor( kcc_controller* c );
/// Appends a world position to the result's path (out may be NULL).
void kcc_result_path_add( kcc_move_result* out, vec2s world );
/// KCC_OK when a move by delta is acceptable for c where it stands (finite, within max_displacement, ending within
/// max_coordinate). Inline: a batch checks every move with it.
static inline kcc_status kcc_move_validate( const kcc_controller* c, vec2s delta )
{
	if ( kcc_is_valid_vec2( delta ) == false )
	{
		return KCC_ERROR_NOT_FINITE;
	}
	if ( fabsf( delta.x ) > c->def.max_displacement || fabsf( delta.y ) > c->def.max_displacement ||
		 glms_vec2_norm( delta ) > c->def.max_displacement )
	{
		return KCC_ERROR_TOO_LARGE;
	}
	// An end that is not finite is a sum beyond float's range: too large.
	kcc_status status = kcc_validate_position( c, kcc_bridge_offset( c->position, delta ) );
	return status == KCC_ERROR_NOT_FINITE ? KCC_ERROR_TOO_LARGE : status;
}
/// kcc_controller_move_and_slide on a controller known to be usable (a batch move when c->batch is set).
kcc_status kcc_move_and_slide( kcc_controller* c, vec2s velocity, float dt, vec2s* out_velocity, kcc_move_result* out );
/// Region of a move's one query (local frame, character at p): everything the move can reach.
kcc_aabb kcc_move_region( const kcc_controller* c, vec2s p, vec2s delta );
