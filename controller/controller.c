// SPDX-License-Identifier: MIT
// The kinematic controller: create / destroy, the move (validate, query, depenetrate, cast and slide, ground,
// sensors), the velocity-level call and the state snapshot. docs/controller.md explains each step.
#include "chipmunk_bridge.h"
#include "internal.h"
// The geometry core's trusted entry points: the candidates and the character are valid by construction.
#include "../geometry/internal.h"

#include <float.h>
#include <string.h>

// A part of a move whose query overflows the candidate buffer is halved at most this many times (1/1024 of it).
#define KCC_MAX_SPLIT_DEPTH 10

// Approach cosine below which the skin back-off stops growing (skin / 1e-4 = 10,000 skins): only a guard
// against dividing by zero. A grazing hit stops the cast at once and the clipped remainder keeps the tangential
// motion, so the gap along the normal never falls below the skin.
#define KCC_MIN_APPROACH 1.0e-4f

// Extra room around the query region and the sweep culls (absorbs the rounding of the Chipmunk bounds).
#define KCC_QUERY_MARGIN 1.0e-3f
#define KCC_CULL_MARGIN 1.0e-4f

// Depenetration normals this close to opposite (cosine) are two sides of one squeeze.
#define KCC_OPPOSITE_COSINE 0.99f

// Rare paths (riding a platform) kept out of line: inlined, they cost the common move a larger stack frame.
#if defined( __GNUC__ )
#define KCC_RARE_PATH __attribute__( ( noinline, cold ) )
#else
#define KCC_RARE_PATH
#endif

static float kcc_dot2( vec2s a, vec2s b )
{
	return a.x * b.x + a.y * b.y;
}

static float kcc_len2( vec2s v )
{
	return sqrtf( v.x * v.x + v.y * v.y );
}

static vec2s kcc_add_scaled( vec2s a, float s, vec2s b )
{
	vec2s r = { { a.x + s * b.x, a.y + s * b.y } };
	return r;
}

static kcc_aabb kcc_aabb_offset( kcc_aabb b, vec2s p )
{
	kcc_aabb r = { { { b.min.x + p.x, b.min.y + p.y } }, { { b.max.x + p.x, b.max.y + p.y } } };
	return r;
}

static kcc_aabb kcc_aabb_union( kcc_aabb a, kcc_aabb b )
{
	kcc_aabb r = { { { kcc_minf( a.min.x, b.min.x ), kcc_minf( a.min.y, b.min.y ) } },
				   { { kcc_maxf( a.max.x, b.max.x ), kcc_maxf( a.max.y, b.max.y ) } } };
	return r;
}

static kcc_aabb kcc_aabb_inflate( kcc_aabb b, float m )
{
	kcc_aabb r = { { { b.min.x - m, b.min.y - m } }, { { b.max.x + m, b.max.y + m } } };
	return r;
}

// ---------------------------------------------------------------------------------------------------------------
// Definition

kcc_controller_def kcc_default_controller_def( void )
{
	kcc_controller_def def;
	memset( &def, 0, sizeof( def ) );
	def.shape.type = KCC_SHAPE_CAPSULE;
	def.shape.capsule.a = kcc_v2( 0.0f, -0.3f );
	def.shape.capsule.b = kcc_v2( 0.0f, 0.3f );
	def.shape.capsule.radius = 0.3f;
	def.position = kcc_v2( 0.0f, 0.0f );
	def.up = kcc_v2( 0.0f, 1.0f );
	def.skin = 0.01f;
	def.min_move = 1.0e-4f;
	def.max_slides = 4;
	def.max_floor_angle = 0.25f * (float)GLM_PI;
	def.snap_distance = 0.1f;
	def.step_height = 0.0f;
	def.stop_on_slope = true;
	def.constant_speed_on_slopes = false;
	def.slide_on_ceiling = true;
	def.mode = KCC_MODE_GROUNDED;
	def.filter = cpShapeFilterNew( CP_NO_GROUP, CP_ALL_CATEGORIES, CP_ALL_CATEGORIES );
	def.one_way_categories = 0;
	def.pushable_categories = 0;
	def.max_displacement = 1000.0f;
	def.max_coordinate = 1.0e6f;
	def.max_depenetration_iterations = 4;
	def.max_candidates = 256;
	def.internal_cookie = KCC_DEF_COOKIE;
	return def;
}

static bool kcc_in_range( float x, float lo, float hi )
{
	return kcc_is_valid_float( x ) && x >= lo && x <= hi;
}

static const char* kcc_shape_problem( const kcc_shape* s )
{
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
			if ( kcc_is_valid_vec2( s->circle.center ) == false || kcc_in_range( s->circle.radius, 0.0f, FLT_MAX ) == false ||
				 s->circle.radius <= 0.0f )
			{
				return "shape: circle needs a finite center and a radius > 0";
			}
			return NULL;
		case KCC_SHAPE_CAPSULE:
			if ( kcc_is_valid_vec2( s->capsule.a ) == false || kcc_is_valid_vec2( s->capsule.b ) == false ||
				 kcc_in_range( s->capsule.radius, 0.0f, FLT_MAX ) == false || s->capsule.radius <= 0.0f )
			{
				return "shape: capsule needs finite end points and a radius > 0";
			}
			return NULL;
		case KCC_SHAPE_AABB:
			if ( kcc_shape_is_valid( s ) == false || s->aabb.max.x - s->aabb.min.x <= 0.0f ||
				 s->aabb.max.y - s->aabb.min.y <= 0.0f )
			{
				return "shape: the box needs a width and a height > 0 (make it with kcc_make_aabb)";
			}
			return NULL;
		case KCC_SHAPE_OBB:
			if ( kcc_shape_is_valid( s ) == false || s->obb.half_extents.x <= 0.0f || s->obb.half_extents.y <= 0.0f )
			{
				return "shape: the box needs half extents > 0 (make it with kcc_make_obb)";
			}
			return NULL;
		case KCC_SHAPE_POLYGON:
			if ( s->polygon.count < 3 || s->polygon.count > KCC_MAX_POLYGON_VERTICES ||
				 kcc_in_range( s->polygon.radius, 0.0f, FLT_MAX ) == false )
			{
				return "shape: polygon needs 3..KCC_MAX_POLYGON_VERTICES vertices and a radius >= 0";
			}
			for ( int i = 0; i < s->polygon.count; ++i )
			{
				if ( kcc_is_valid_vec2( s->polygon.vertices[i] ) == false )
				{
					return "shape: polygon vertex is not finite";
				}
			}
			return kcc_shape_is_valid( s ) ? NULL : "shape: invalid polygon (make it with kcc_make_polygon / kcc_make_box)";
		case KCC_SHAPE_SECTOR:
			return "shape: a sector can not be a character (use a circle, capsule, box or convex polygon)";
		default:
			return "shape: invalid shape (type KCC_SHAPE_INVALID or unknown)";
	}
}

const char* kcc_controller_def_problem( const kcc_controller_def* def )
{
	if ( def == NULL )
	{
		return "def is NULL";
	}
	if ( def->internal_cookie != KCC_DEF_COOKIE )
	{
		return "internal_cookie: def was not initialised with kcc_default_controller_def()";
	}
	const char* shape_problem = kcc_shape_problem( &def->shape );
	if ( shape_problem != NULL )
	{
		return shape_problem;
	}
	if ( kcc_in_range( def->max_coordinate, FLT_MIN, 1.0e7f ) == false )
	{
		return "max_coordinate: must be finite, > 0 and <= 1e7 (float precision)";
	}
	if ( kcc_in_range( def->max_displacement, FLT_MIN, 2.0f * def->max_coordinate ) == false )
	{
		return "max_displacement: must be finite, > 0 and <= 2 * max_coordinate";
	}
	if ( kcc_is_valid_vec2( def->position ) == false || fabsf( def->position.x ) > def->max_coordinate ||
		 fabsf( def->position.y ) > def->max_coordinate )
	{
		return "position: must be finite and within max_coordinate";
	}
	float up_length = kcc_len2( def->up );
	if ( kcc_is_valid_vec2( def->up ) == false || fabsf( up_length - 1.0f ) > 1.0e-3f )
	{
		return "up: must be a finite unit vector";
	}
	kcc_aabb bounds = kcc_shape_bounds( &def->shape );
	float size = kcc_maxf( bounds.max.x - bounds.min.x, bounds.max.y - bounds.min.y );
	if ( kcc_is_valid_float( size ) == false || size <= 0.0f || size > def->max_displacement )
	{
		return "shape: its size must be > 0 and at most max_displacement";
	}
	if ( kcc_maxf( kcc_maxf( fabsf( bounds.min.x ), fabsf( bounds.max.x ) ), kcc_maxf( fabsf( bounds.min.y ), fabsf( bounds.max.y ) ) ) >
		 def->max_coordinate )
	{
		return "shape: local coordinates must be within max_coordinate";
	}
	if ( kcc_in_range( def->skin, FLT_MIN, 0.5f * size ) == false )
	{
		return "skin: must be finite, > 0 and at most half the shape's size";
	}
	if ( kcc_in_range( def->min_move, 0.0f, def->max_displacement ) == false )
	{
		return "min_move: must be finite and in [0, max_displacement]";
	}
	if ( def->max_slides < 1 || def->max_slides > 16 )
	{
		return "max_slides: must be in 1..16";
	}
	if ( kcc_is_valid_float( def->max_floor_angle ) == false || def->max_floor_angle < 0.0f ||
		 def->max_floor_angle >= 0.5f * (float)GLM_PI )
	{
		return "max_floor_angle: must be in [0, pi/2) radians";
	}
	if ( kcc_in_range( def->snap_distance, 0.0f, def->max_displacement ) == false )
	{
		return "snap_distance: must be finite and in [0, max_displacement]";
	}
	if ( kcc_in_range( def->step_height, 0.0f, def->max_displacement ) == false )
	{
		return "step_height: must be finite and in [0, max_displacement]";
	}
	if ( def->mode != KCC_MODE_GROUNDED && def->mode != KCC_MODE_FLOATING )
	{
		return "mode: must be KCC_MODE_GROUNDED or KCC_MODE_FLOATING";
	}
	if ( def->max_depenetration_iterations < 1 || def->max_depenetration_iterations > 16 )
	{
		return "max_depenetration_iterations: must be in 1..16";
	}
	if ( def->max_candidates < 16 || def->max_candidates > 65536 )
	{
		return "max_candidates: must be in 16..65536";
	}
	return NULL;
}

// AABB and OBB characters become polygons (Chipmunk has no box other than a polygon).
static kcc_shape kcc_character_shape( const kcc_shape* s )
{
	if ( s->type != KCC_SHAPE_AABB && s->type != KCC_SHAPE_OBB )
	{
		return *s;
	}
	vec2s points[4];
	if ( s->type == KCC_SHAPE_AABB )
	{
		points[0] = s->aabb.min;
		points[1] = kcc_v2( s->aabb.max.x, s->aabb.min.y );
		points[2] = s->aabb.max;
		points[3] = kcc_v2( s->aabb.min.x, s->aabb.max.y );
	}
	else
	{
		vec2s ax = glms_vec2_scale( s->obb.rotation, s->obb.half_extents.x );
		vec2s ay = glms_vec2_scale( kcc_v2( -s->obb.rotation.y, s->obb.rotation.x ), s->obb.half_extents.y );
		points[0] = glms_vec2_sub( glms_vec2_sub( s->obb.center, ax ), ay );
		points[1] = glms_vec2_sub( glms_vec2_add( s->obb.center, ax ), ay );
		points[2] = glms_vec2_add( glms_vec2_add( s->obb.center, ax ), ay );
		points[3] = glms_vec2_add( glms_vec2_sub( s->obb.center, ax ), ay );
	}
	return kcc_make_polygon( points, 4, 0.0f );
}

// Lowest point of a shape (around the origin) along up: min over the shape of dot( x, up ).
static float kcc_lowest_along( const kcc_shape* s, vec2s up )
{
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
			return kcc_dot2( s->circle.center, up ) - s->circle.radius;
		case KCC_SHAPE_CAPSULE:
			return kcc_minf( kcc_dot2( s->capsule.a, up ), kcc_dot2( s->capsule.b, up ) ) - s->capsule.radius;
		case KCC_SHAPE_POLYGON:
		{
			float lowest = FLT_MAX;
			for ( int i = 0; i < s->polygon.count; ++i )
			{
				lowest = kcc_minf( lowest, kcc_dot2( s->polygon.vertices[i], up ) );
			}
			return lowest - s->polygon.radius;
		}
		default:
			return 0.0f;
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Create / destroy

kcc_controller* kcc_controller_create( cpSpace* space, const kcc_controller_def* def )
{
	const char* problem = kcc_controller_def_problem( def );
	KCC_ASSERT( space != NULL, "kcc_controller_create: space is NULL" );
	KCC_ASSERT( problem == NULL, problem );
	if ( space == NULL || problem != NULL )
	{
		return NULL;
	}
	kcc_shape shape = kcc_character_shape( &def->shape );
	if ( kcc_shape_is_valid( &shape ) == false && shape.type == KCC_SHAPE_INVALID )
	{
		KCC_ASSERT( false, "kcc_controller_create: shape: degenerate box" );
		return NULL;
	}

	// One allocation: the controller, then its candidate buffer.
	size_t header = ( sizeof( kcc_controller ) + 15 ) & ~(size_t)15;
	size_t size = header + (size_t)def->max_candidates * sizeof( kcc_candidate );
	kcc_controller* c = kcc_alloc( size );
	if ( c == NULL )
	{
		return NULL;
	}
	memset( c, 0, sizeof( *c ) );
	c->candidates = (kcc_candidate*)( (char*)c + header );
	c->candidate_capacity = def->max_candidates;
	c->space = space;
	c->def = *def;
	c->local_shape = shape;
	c->local_bounds = kcc_shape_bounds( &shape );
	c->cos_floor = cosf( def->max_floor_angle );
	c->tan_floor = tanf( def->max_floor_angle );
	float rounding = shape.type == KCC_SHAPE_CIRCLE ? shape.circle.radius
					 : shape.type == KCC_SHAPE_CAPSULE ? shape.capsule.radius
					 : shape.type == KCC_SHAPE_POLYGON ? shape.polygon.radius : 0.0f;
	c->step_forward = rounding + def->skin;
	c->rounding = rounding;
	// Two skins: a character resting on a one-way top sits one skin above it, and a fall may end inside the skin.
	c->one_way_tolerance = 2.0f * def->skin;
	c->bottom_offset = kcc_lowest_along( &shape, def->up );
	// The group makes this controller's own queries skip its shape; it is never used to order anything.
	c->query_filter = cpShapeFilterNew( (cpGroup)(uintptr_t)c, def->filter.categories, def->filter.mask );
	c->position = def->position;
	c->origin = def->position;
	c->floor_normal = def->up;
	// Half the shape's smaller extent: a walking character is reindexed every few moves, and other queries meet it
	// in few extra cells.
	float extent = kcc_minf( c->local_bounds.max.x - c->local_bounds.min.x, c->local_bounds.max.y - c->local_bounds.min.y );
	c->index_margin = 0.5f * extent;
	if ( kcc_world_create( c ) == false )
	{
		kcc_free( c );
		return NULL;
	}
	return c;
}

void kcc_controller_destroy( kcc_controller* c )
{
	if ( c == NULL )
	{
		return;
	}
	kcc_world_destroy( c );
	kcc_free( c );
}

// ---------------------------------------------------------------------------------------------------------------
// Sweeps

void kcc_character_at( const kcc_controller* c, vec2s p, kcc_shape* out )
{
	const kcc_shape* s = &c->local_shape;
	kcc_shape* r = out;
	r->type = s->type;
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
			r->circle.center = glms_vec2_add( s->circle.center, p );
			r->circle.radius = s->circle.radius;
			break;
		case KCC_SHAPE_CAPSULE:
			r->capsule.a = glms_vec2_add( s->capsule.a, p );
			r->capsule.b = glms_vec2_add( s->capsule.b, p );
			r->capsule.radius = s->capsule.radius;
			break;
		case KCC_SHAPE_POLYGON:
			r->polygon = s->polygon;
			for ( int i = 0; i < s->polygon.count; ++i )
			{
				r->polygon.vertices[i] = glms_vec2_add( s->polygon.vertices[i], p );
			}
			r->polygon.centroid = glms_vec2_add( s->polygon.centroid, p );
			break;
		default:
			*r = kcc_shape_translate( s, p );
			break;
	}
}

static kcc_candidate* kcc_candidate_ready( const kcc_controller* c, kcc_candidate* cand )
{
	if ( cand->converted == false )
	{
		kcc_world_convert( c, cand );
	}
	return cand;
}

// Deterministic order among equal results: Chipmunk's hashid, then the polygon piece. Never a pointer value.
static bool kcc_candidate_before( const kcc_candidate* a, const kcc_candidate* b )
{
	if ( b == NULL )
	{
		return true;
	}
	return a->key < b->key || ( a->key == b->key && a->piece < b->piece );
}

// floor_only: the reported contact is the first one with a walkable normal (a steep edge met first does not hide
// the floor the character stands on); the travel still keeps the skin from every hit.
static kcc_sweep kcc_sweep_impl( kcc_controller* c, vec2s from, vec2s translation, bool floor_only )
{
	kcc_sweep best = { 0 };
	float len = kcc_len2( translation );
	best.travel = len;
	best.distance = len;
	if ( len <= 0.0f )
	{
		return best;
	}
	vec2s dir = glms_vec2_scale( translation, 1.0f / len );
	kcc_shape moving;
	bool have_moving = false;
	kcc_aabb start = kcc_aabb_offset( c->local_bounds, from );
	kcc_aabb swept = kcc_aabb_inflate( kcc_aabb_union( start, kcc_aabb_offset( start, translation ) ), KCC_CULL_MARGIN );
	float skin = c->def.skin;
	float best_allowed = FLT_MAX;

	for ( int i = 0; i < c->candidate_count; ++i )
	{
		kcc_candidate* cand = c->candidates + i;
		if ( cand->blocks == false || kcc_aabb_overlaps_aabb( swept, cand->bounds ) == false )
		{
			continue;
		}
		kcc_candidate_ready( c, cand );
		if ( have_moving == false )
		{
			kcc_character_at( c, from, &moving );
			have_moving = true;
		}
		kcc_cast_output out = kcc_shape_cast_trusted( &moving, translation, &cand->core, 0.0f );
		if ( out.hit == false )
		{
			continue;
		}
		vec2s n = out.normal;
		float distance;
		float allowed;
		if ( out.fraction <= 0.0f && kcc_dot2( n, n ) < 0.25f )
		{
			// Started touching or overlapping: the penetration normal says which way is out. Moving out (or
			// along) is free; moving in is blocked at once.
			kcc_penetration_output pen = kcc_penetration_trusted( &cand->core, &moving );
			if ( pen.overlapping == false || kcc_dot2( pen.normal, pen.normal ) < 0.25f )
			{
				continue;
			}
			n = pen.normal;
			if ( kcc_dot2( dir, n ) >= 0.0f )
			{
				continue;
			}
			// A one-way shape the character is inside (passing through) never blocks; only resting on its top
			// within the tolerance does.
			if ( cand->one_way &&
				 ( kcc_dot2( n, c->def.up ) < c->cos_floor || pen.depth > c->one_way_tolerance ) )
			{
				continue;
			}
			distance = 0.0f;
			allowed = 0.0f;
		}
		else
		{
			float approach = -kcc_dot2( dir, n );
			if ( approach <= 0.0f )
			{
				// Contact while moving along or away from the surface: it does not block.
				continue;
			}
			if ( cand->one_way && kcc_one_way_blocks( c, from, n, out.point ) == false )
			{
				continue;
			}
			distance = out.fraction * len;
			// Stop where the gap measured along the normal is the skin: a surface moved along at the skin's
			// gap (a coplanar tile seam) is then never reached.
			allowed = distance - skin / kcc_maxf( approach, KCC_MIN_APPROACH );
			allowed = allowed > 0.0f ? allowed : 0.0f;
		}
		// The first contact (smallest time of impact, ties by the stable key) gives the normal to slide on; the
		// travel keeps the skin from every surface hit on the way.
		best_allowed = kcc_minf( best_allowed, allowed );
		best.blocked = true;
		if ( floor_only && kcc_classify_normal( n, c->def.up, c->cos_floor, c->def.mode ) != KCC_KIND_FLOOR )
		{
			continue;
		}
		if ( best.hit == false || distance < best.distance ||
			 ( distance == best.distance && kcc_candidate_before( cand, best.candidate ) ) )
		{
			best.hit = true;
			best.distance = distance;
			best.normal = n;
			best.point = out.point;
			best.candidate = cand;
		}
	}
	if ( best.blocked )
	{
		best.travel = best_allowed;
	}
	return best;
}

bool kcc_one_way_blocks( const kcc_controller* c, vec2s from, vec2s normal, vec2s point )
{
	vec2s up = c->def.up;
	float facing = kcc_dot2( normal, up );
	if ( facing < c->cos_floor )
	{
		return false; // the side or the underside of a one-way shape
	}
	// A round bottom resting on a surface of this normal touches it rounding * (1 - facing) above its lowest point.
	float bottom = kcc_dot2( from, up ) + c->bottom_offset;
	float contact = kcc_dot2( point, up ) - c->one_way_tolerance - c->rounding * ( 1.0f - facing );
	return bottom >= contact;
}

kcc_sweep kcc_sweep_character( kcc_controller* c, vec2s from, vec2s translation )
{
	return kcc_sweep_impl( c, from, translation, false );
}

kcc_sweep kcc_sweep_floor( kcc_controller* c, vec2s from, vec2s translation )
{
	return kcc_sweep_impl( c, from, translation, true );
}


// ---------------------------------------------------------------------------------------------------------------
// Depenetration

vec2s kcc_depenetrate( kcc_controller* c, vec2s p, bool* pushed, bool* crushed )
{
	*pushed = false;
	*crushed = false;
	int rounds = c->def.max_depenetration_iterations;
	vec2s last_normal = { { 0.0f, 0.0f } };
	for ( int round = 0; round <= rounds; ++round )
	{
		kcc_shape character;
		bool have_character = false;
		kcc_aabb bounds = kcc_aabb_offset( c->local_bounds, p );
		const kcc_candidate* deepest = NULL;
		kcc_penetration_output deepest_pen = { 0 };
		for ( int i = 0; i < c->candidate_count; ++i )
		{
			kcc_candidate* cand = c->candidates + i;
			if ( cand->blocks == false || kcc_aabb_overlaps_aabb( bounds, cand->bounds ) == false )
			{
				continue;
			}
			kcc_candidate_ready( c, cand );
			if ( have_character == false )
			{
				kcc_character_at( c, p, &character );
				have_character = true;
			}
			kcc_penetration_output pen = kcc_penetration_trusted( &cand->core, &character );
			if ( pen.overlapping == false || kcc_dot2( pen.normal, pen.normal ) < 0.25f )
			{
				continue;
			}
			// Passing through a one-way shape: never pushed out sideways or up; only a shallow overlap of its top
			// (the character resting on it, or the shape rising under it) is pushed out.
			if ( cand->one_way &&
				 ( kcc_dot2( pen.normal, c->def.up ) < c->cos_floor || pen.depth > c->one_way_tolerance ) )
			{
				continue;
			}
			if ( deepest == NULL || pen.depth > deepest_pen.depth ||
				 ( pen.depth == deepest_pen.depth && kcc_candidate_before( cand, deepest ) ) )
			{
				deepest = cand;
				deepest_pen = pen;
			}
		}
		if ( deepest == NULL )
		{
			return p;
		}
		if ( round == rounds )
		{
			*crushed = true;
			return p;
		}
		// Out by the depth plus the skin, so the casts that follow do not start in contact. Except right after a
		// push the other way (a gap barely wider than the character, between a floor and a ceiling, say): the
		// previous push went one skin past the first surface, so the room left is skin - depth; going back by
		// (skin + depth) / 2 puts the character in the middle of it instead of into the first surface again.
		float push = deepest_pen.depth + c->def.skin;
		if ( round > 0 && kcc_dot2( deepest_pen.normal, last_normal ) < -KCC_OPPOSITE_COSINE )
		{
			push = 0.5f * push;
		}
		p = kcc_add_scaled( p, push, deepest_pen.normal );
		last_normal = deepest_pen.normal;
		*pushed = true;
	}
	return p;
}

// ---------------------------------------------------------------------------------------------------------------
// The move

typedef struct kcc_move_accumulator
{
	kcc_move_result* out; // optional
	float travel;         // path length of the earlier sub-moves
	uint32_t flags;       // flags met in earlier sub-moves (walls, ceilings, ...)
} kcc_move_accumulator;

static kcc_slide_params kcc_params( const kcc_controller* c )
{
	kcc_slide_params p;
	p.up = c->def.up;
	p.grounded = c->def.mode == KCC_MODE_GROUNDED;
	p.stop_on_slope = c->def.stop_on_slope;
	p.constant_speed_on_slopes = c->def.constant_speed_on_slopes;
	p.slide_on_ceiling = c->def.slide_on_ceiling;
	return p;
}

// Snap reach below the character for a move with this lateral length: walking down any walkable slope at speed
// keeps contact.
static float kcc_snap_reach( const kcc_controller* c, float lateral_length )
{
	return c->def.snap_distance + lateral_length * c->tan_floor;
}

// Region of the move's one query (local frame, character at p): every position the slide can reach (a half disc of
// radius |delta| in the direction of delta: clipped motion is never longer than what remains and never goes against
// delta) around the shape; below it the ground probe's reach, above it the step height; the skin all around.
static kcc_aabb kcc_move_region( const kcc_controller* c, vec2s p, vec2s delta )
{
	float len = kcc_len2( delta );
	kcc_aabb r = kcc_aabb_offset( c->local_bounds, p );
	if ( len > 0.0f )
	{
		vec2s d = glms_vec2_scale( delta, 1.0f / len );
		r.max.x += d.x >= 0.0f ? len : len * fabsf( d.y );
		r.min.x -= d.x <= 0.0f ? len : len * fabsf( d.y );
		r.max.y += d.y >= 0.0f ? len : len * fabsf( d.x );
		r.min.y -= d.y <= 0.0f ? len : len * fabsf( d.x );
	}
	vec2s up = c->def.up;
	float below = 0.0f;
	float above = c->def.step_height;
	// A step moves forward at least step_forward, in any lateral direction.
	float around = c->def.step_height > 0.0f ? c->step_forward : 0.0f;
	if ( c->def.mode == KCC_MODE_GROUNDED )
	{
		float lateral = kcc_len2( kcc_add_scaled( delta, -kcc_dot2( delta, up ), up ) );
		below = kcc_snap_reach( c, lateral ) + c->def.skin / kcc_maxf( c->cos_floor, 0.05f ) + c->def.skin;
	}
	// Along up: above, along -up: below (up need not be axis aligned).
	vec2s hi = glms_vec2_scale( up, above );
	vec2s lo = glms_vec2_scale( up, -below );
	r.min.x += kcc_minf( kcc_minf( hi.x, lo.x ), 0.0f );
	r.min.y += kcc_minf( kcc_minf( hi.y, lo.y ), 0.0f );
	r.max.x += kcc_maxf( kcc_maxf( hi.x, lo.x ), 0.0f );
	r.max.y += kcc_maxf( kcc_maxf( hi.y, lo.y ), 0.0f );
	return kcc_aabb_inflate( r, around + 2.0f * c->def.skin + KCC_QUERY_MARGIN );
}

static void kcc_record_collision( kcc_move_accumulator* acc, const kcc_controller* c, const kcc_sweep* s, float travel,
								  uint32_t kind )
{
	kcc_move_result* out = acc->out;
	if ( out == NULL || out->collision_count >= KCC_MAX_COLLISIONS )
	{
		return;
	}
	kcc_collision* col = out->collisions + out->collision_count++;
	col->point = kcc_bridge_offset( c->origin, s->point );
	col->normal = s->normal;
	col->travel = acc->travel + travel;
	col->shape = s->candidate->shape;
	col->flags = kind;
}

// Sensors overlapping the final shape, smallest hashid first, each shape once.
static void kcc_report_sensors( kcc_controller* c, vec2s p, kcc_move_result* out )
{
	kcc_shape character;
	kcc_character_at( c, p, &character );
	kcc_aabb bounds = kcc_aabb_offset( c->local_bounds, p );
	out->sensor_count = 0;
	uint32_t last_key = 0;
	bool have_last = false;
	while ( out->sensor_count < KCC_MAX_SENSORS )
	{
		const kcc_candidate* next = NULL;
		for ( int i = 0; i < c->candidate_count; ++i )
		{
			kcc_candidate* cand = c->candidates + i;
			if ( cand->sensor == false || ( have_last && cand->key <= last_key ) ||
				 ( next != NULL && cand->key >= next->key ) || kcc_aabb_overlaps_aabb( bounds, cand->bounds ) == false )
			{
				continue;
			}
			kcc_candidate_ready( c, cand );
			if ( kcc_overlap( &character, &cand->core ) )
			{
				next = cand;
			}
		}
		if ( next == NULL )
		{
			break;
		}
		out->sensors[out->sensor_count++] = next->shape;
		last_key = next->key;
		have_last = true;
	}
}

static kcc_status kcc_validate_position( const kcc_controller* c, vec2s p )
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

// After the move, while the candidates are still valid: the floor (for drop-through and for riding a kinematic
// body next move) and whether the character is clear of the one-way shape it is dropping through.
static void kcc_remember_floor( kcc_controller* c, vec2s p, const kcc_candidate* floor )
{
	c->floor_shape = floor != NULL ? floor->shape : NULL;
	c->floor_one_way = floor != NULL && floor->one_way;
	c->platform = NULL;
	const cpBody* body = floor != NULL ? kcc_world_kinematic_body( floor->shape ) : NULL;
	if ( body != NULL )
	{
		c->platform = body;
		kcc_world_body_pose( body, &c->platform_position, &c->platform_angle );
		// The point carried rigidly: the centre of the character's rounding where it touches the platform (a
		// circle's centre, a capsule's lower end point, a rounded box's corner). Its contact with a turning
		// platform then stays at the same place on the platform.
		kcc_shape character;
		kcc_character_at( c, p, &character );
		kcc_distance_output d = kcc_distance_trusted( &character, &floor->core );
		c->carry_anchor = glms_vec2_scale( c->def.up, c->bottom_offset + c->rounding );
		if ( d.distance > 0.0f )
		{
			c->carry_anchor = glms_vec2_sub( kcc_add_scaled( d.point_a, -c->rounding, d.normal ), p );
		}
	}
	if ( c->drop_shape == NULL )
	{
		return;
	}
	// Dropping ends once the character is more than the tolerance away from the shape (below it, or it jumped),
	// or the shape is gone from the query.
	bool near = false;
	kcc_shape character;
	kcc_character_at( c, p, &character );
	for ( int i = 0; i < c->candidate_count && near == false; ++i )
	{
		kcc_candidate* cand = c->candidates + i;
		if ( cand->shape == c->drop_shape )
		{
			kcc_candidate_ready( c, cand );
			near = kcc_distance_trusted( &character, &cand->core ).distance <= c->one_way_tolerance;
		}
	}
	if ( near == false )
	{
		c->drop_shape = NULL;
	}
}

// Moving platforms: the character stood on the kinematic body c->platform after its last move. Find that body
// among the shapes around the character now (by pointer value only: a body the game removed is simply not found),
// and carry the character by the body's motion since then (translation and rotation about the body's position).
// The carry is a cast that ignores the carrying body's own shapes: a wall stops it.
KCC_RARE_PATH static void kcc_carry( kcc_controller* c, kcc_move_accumulator* acc )
{
	const cpBody* platform = c->platform;
	c->platform = NULL;
	c->origin = c->position;
	// Usually the platform moved less than the character's size: look for it around the character. Otherwise (a
	// fast platform) look for the pointer value among the space's bodies, which are all alive.
	float size = kcc_maxf( c->local_bounds.max.x - c->local_bounds.min.x, c->local_bounds.max.y - c->local_bounds.min.y );
	kcc_world_gather( c, kcc_aabb_inflate( kcc_move_region( c, kcc_v2( 0.0f, 0.0f ), kcc_v2( 0.0f, 0.0f ) ), size ) );
	const cpBody* found = NULL;
	for ( int i = 0; i < c->candidate_count && found == NULL; ++i )
	{
		const cpBody* body = kcc_world_shape_body( c->candidates[i].shape );
		if ( body == platform )
		{
			found = body;
		}
	}
	if ( found == NULL )
	{
		found = kcc_world_find_body( c, platform );
	}
	if ( found == NULL )
	{
		return; // removed by the game: the character is simply no longer carried
	}
	cpVect position;
	double angle;
	kcc_world_body_pose( found, &position, &angle );
	double turn = angle - c->platform_angle;
	double cs = turn == 0.0 ? 1.0 : cos( turn ), sn = turn == 0.0 ? 0.0 : sin( turn );
	double fx = (double)c->position.x + (double)c->carry_anchor.x;
	double fy = (double)c->position.y + (double)c->carry_anchor.y;
	double rx = fx - c->platform_position.x;
	double ry = fy - c->platform_position.y;
	vec2s carry = { { kcc_bridge_to_float( position.x + cs * rx - sn * ry - fx ),
					  kcc_bridge_to_float( position.y + sn * rx + cs * ry - fy ) } };
	float length = kcc_len2( carry );
	if ( kcc_is_valid_vec2( carry ) == false || length <= 0.0f || length > c->def.max_displacement )
	{
		return; // no motion, or a teleported platform: not carried
	}
	kcc_world_gather( c, kcc_move_region( c, kcc_v2( 0.0f, 0.0f ), carry ) );
	if ( c->candidate_overflow )
	{
		acc->flags |= KCC_CANDIDATES_TRUNCATED;
	}
	for ( int i = 0; i < c->candidate_count; ++i )
	{
		kcc_candidate* cand = c->candidates + i;
		if ( kcc_world_shape_body( cand->shape ) == platform )
		{
			cand->blocks = false; // the character moves with its platform; the next query resets this
		}
	}
	kcc_sweep s = kcc_sweep_character( c, kcc_v2( 0.0f, 0.0f ), carry );
	vec2s p = s.hit ? glms_vec2_scale( carry, s.travel / length ) : carry;
	vec2s moved = kcc_bridge_offset( c->origin, p );
	if ( kcc_validate_position( c, moved ) == KCC_OK )
	{
		c->position = moved;
	}
}

// One sub-move: the candidates for it are already gathered around c->origin == c->position.
static void kcc_move_piece( kcc_controller* c, vec2s delta, kcc_move_accumulator* acc, bool last_piece )
{
	const kcc_controller_def* def = &c->def;
	kcc_slide_params params = kcc_params( c );
	vec2s up = def->up;
	bool grounded_mode = def->mode == KCC_MODE_GROUNDED;
	bool was_on_floor = ( c->flags & KCC_ON_FLOOR ) != 0;
	uint32_t flags = 0;
	vec2s p = { { 0.0f, 0.0f } };

	// 3. Start overlapping (spawned inside, the world changed): push out first.
	bool pushed, crushed;
	p = kcc_depenetrate( c, p, &pushed, &crushed );
	if ( pushed )
	{
		flags |= KCC_DEPENETRATED;
		// The push may leave the region the query covered: query again around the new start.
		kcc_world_gather( c, kcc_move_region( c, p, delta ) );
		if ( c->candidate_overflow )
		{
			flags |= KCC_CANDIDATES_TRUNCATED;
		}
	}
	if ( crushed )
	{
		flags |= KCC_CRUSHED;
	}

	// Constant speed downhill: walking down a slope never touches it (the snap follows it afterwards), so the lateral
	// input would cover |lateral| horizontally, |lateral| / cos(angle) along the slope. Starting on the floor, the
	// lateral part is turned along the floor instead, keeping its length (uphill, the floor contact does it).
	if ( grounded_mode && def->constant_speed_on_slopes && was_on_floor )
	{
		vec2s n = c->floor_normal;
		float vertical = kcc_dot2( delta, up );
		vec2s lateral = kcc_add_scaled( delta, -vertical, up );
		float away = kcc_dot2( lateral, n );
		if ( vertical <= 0.0f && away > 0.0f && kcc_dot2( n, up ) < 1.0f - 1.0e-6f )
		{
			vec2s along = kcc_add_scaled( lateral, -away, n );
			float along_length = kcc_len2( along );
			if ( along_length > 0.0f )
			{
				delta = kcc_add_scaled( glms_vec2_scale( along, kcc_len2( lateral ) / along_length ), vertical, up );
			}
		}
	}

	// 4. Cast and slide.
	vec2s planes[KCC_MAX_PLANES];
	int plane_count = 0;
	vec2s r = delta;
	float travel = 0.0f;
	bool hit_floor = false;
	vec2s floor_normal = up;
	const kcc_candidate* floor_candidate = NULL;
	vec2s blocked_lateral = { { 0.0f, 0.0f } };
	bool blocked = false;
	float delta_length = kcc_len2( delta );

	if ( delta_length >= def->min_move && delta_length > 0.0f )
	{
		for ( int slide = 0; slide < def->max_slides; ++slide )
		{
			float r_length = kcc_len2( r );
			if ( r_length <= 0.0f || r_length < def->min_move )
			{
				break;
			}
			kcc_sweep s = kcc_sweep_character( c, p, r );
			if ( s.hit == false )
			{
				p = glms_vec2_add( p, r );
				travel += r_length;
				r = kcc_v2( 0.0f, 0.0f );
				break;
			}
			vec2s dir = glms_vec2_scale( r, 1.0f / r_length );
			p = kcc_add_scaled( p, s.travel, dir );
			travel += s.travel;
			r = glms_vec2_scale( r, ( r_length - s.travel ) / r_length );

			uint32_t kind = kcc_classify_normal( s.normal, up, c->cos_floor, def->mode );
			kcc_record_collision( acc, c, &s, travel, kind );
			if ( kind == KCC_KIND_FLOOR )
			{
				hit_floor = true;
				floor_normal = s.normal;
				floor_candidate = s.candidate;
			}
			else
			{
				flags |= kind;
			}
			if ( kind == KCC_KIND_WALL && blocked == false )
			{
				blocked_lateral = kcc_add_scaled( r, -kcc_dot2( r, up ), up );
				blocked = true;
			}
			r = kcc_slide_remaining( &params, planes, plane_count, delta, r, s.normal, kind );
			if ( plane_count < KCC_MAX_PLANES )
			{
				planes[plane_count++] = s.normal;
			}
			if ( slide == def->max_slides - 1 && kcc_len2( r ) >= def->min_move && kcc_len2( r ) > 0.0f )
			{
				flags |= KCC_HIT_LIMIT;
			}
		}
	}

	// 5. Ground: step, then probe and snap.
	bool on_floor = false;
	if ( grounded_mode )
	{
		bool moving_up = kcc_dot2( delta, up ) > 0.0f;
		bool grounded = was_on_floor || hit_floor;
		if ( def->step_height > 0.0f && grounded && blocked && moving_up == false && kcc_len2( blocked_lateral ) > 0.0f )
		{
			kcc_step_result st = kcc_try_step( c, p, blocked_lateral );
			if ( st.stepped )
			{
				travel += kcc_len2( glms_vec2_sub( st.position, p ) );
				p = st.position;
				flags |= KCC_STEPPED;
				hit_floor = true;
				floor_normal = st.normal;
				floor_candidate = st.floor;
			}
		}
		if ( moving_up == false || hit_floor )
		{
			bool allow_snap = def->snap_distance > 0.0f && grounded && moving_up == false;
			float lateral = kcc_len2( kcc_add_scaled( delta, -kcc_dot2( delta, up ), up ) );
			kcc_ground_result g = kcc_ground_probe( c, p, kcc_snap_reach( c, lateral ), allow_snap );
			if ( g.on_floor )
			{
				travel += kcc_len2( glms_vec2_sub( g.position, p ) );
				p = g.position;
				on_floor = true;
				floor_normal = g.normal;
				floor_candidate = g.floor;
				if ( g.snapped )
				{
					flags |= KCC_SNAPPED;
				}
			}
		}
	}
	if ( on_floor )
	{
		flags |= KCC_ON_FLOOR;
	}

	// Sensors, then the new position for Chipmunk.
	kcc_move_result* out = acc->out;
	if ( out != NULL && last_piece )
	{
		kcc_report_sensors( c, p, out );
	}
	c->position = kcc_bridge_offset( c->origin, p );
	c->flags = flags;
	c->floor_normal = on_floor ? floor_normal : up;
	acc->travel += travel;
	acc->flags |= flags & ( KCC_ON_WALL | KCC_ON_CEILING | KCC_DEPENETRATED | KCC_CRUSHED | KCC_HIT_LIMIT |
							KCC_SNAPPED | KCC_STEPPED | KCC_CANDIDATES_TRUNCATED );
	if ( out != NULL )
	{
		out->floor_normal = c->floor_normal;
		out->floor_shape = on_floor && floor_candidate != NULL ? floor_candidate->shape : NULL;
	}
	if ( last_piece )
	{
		kcc_remember_floor( c, p, on_floor ? floor_candidate : NULL );
	}
}

// One part of a move, from the character's current position. When its query meets more shapes than the buffer
// holds, it is done as two halves, each queried where it starts (a fall onto a dense floor overflows only near the
// floor). Halving stops at 1/1024 of the move, and before a half would be shorter than min_move (it would not be
// cast at all): then the part goes on with what fits and reports KCC_CANDIDATES_TRUNCATED.
static void kcc_move_part( kcc_controller* c, vec2s delta, int depth, bool last, kcc_move_accumulator* acc )
{
	c->origin = c->position;
	kcc_world_gather( c, kcc_move_region( c, kcc_v2( 0.0f, 0.0f ), delta ) );
	float half_length = 0.5f * kcc_len2( delta );
	if ( c->candidate_overflow && depth < KCC_MAX_SPLIT_DEPTH && half_length >= c->def.min_move && half_length > 0.0f )
	{
		vec2s half = glms_vec2_scale( delta, 0.5f );
		kcc_move_part( c, half, depth + 1, false, acc );
		kcc_move_part( c, half, depth + 1, last, acc );
		return;
	}
	if ( c->candidate_overflow )
	{
		acc->flags |= KCC_CANDIDATES_TRUNCATED;
	}
	kcc_move_piece( c, delta, acc, last );
}

// Only the header: collisions and sensors past their counts are not read (and clearing 700 bytes a move shows).
static void kcc_clear_result( kcc_move_result* out, vec2s position, uint32_t flags, vec2s floor_normal )
{
	out->displacement = kcc_v2( 0.0f, 0.0f );
	out->floor_shape = NULL;
	out->collision_count = 0;
	out->sensor_count = 0;
	out->position = position;
	out->flags = flags;
	out->floor_normal = floor_normal;
}

kcc_status kcc_controller_move( kcc_controller* c, vec2s delta, kcc_move_result* out )
{
	KCC_ASSERT( c != NULL, "kcc_controller_move: controller is NULL" );
	if ( c == NULL )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	kcc_status status = KCC_OK;
	if ( kcc_is_valid_vec2( delta ) == false )
	{
		status = KCC_ERROR_NOT_FINITE;
	}
	else if ( fabsf( delta.x ) > c->def.max_displacement || fabsf( delta.y ) > c->def.max_displacement ||
			  kcc_len2( delta ) > c->def.max_displacement )
	{
		status = KCC_ERROR_TOO_LARGE;
	}
	else
	{
		vec2s end = kcc_bridge_offset( c->position, delta );
		status = kcc_validate_position( c, end );
		if ( status == KCC_ERROR_NOT_FINITE )
		{
			status = KCC_ERROR_TOO_LARGE;
		}
	}
	if ( status != KCC_OK )
	{
		if ( out != NULL )
		{
			kcc_clear_result( out, c->position, c->flags, c->floor_normal );
		}
		return status;
	}

	vec2s start = c->position;
	if ( out != NULL )
	{
		kcc_clear_result( out, start, 0, c->def.up );
	}
	kcc_move_accumulator acc = { out, 0.0f, 0 };

	// 1. Riding a kinematic body: carried by its motion first (nothing to do in a level without moving bodies).
	if ( c->platform != NULL )
	{
		kcc_carry( c, &acc );
	}

	// 2. One query over the whole move; when it holds more shapes than the buffer, the move is split in halves,
	// each with its own query, until every part fits (kcc_move_part).
	kcc_move_part( c, delta, 0, true, &acc );
	c->flags |= acc.flags;

	kcc_world_sync_body( c );
	if ( out != NULL )
	{
		out->position = c->position;
		out->displacement = glms_vec2_sub( c->position, start );
		out->flags = c->flags;
	}
	return KCC_OK;
}

kcc_status kcc_controller_move_and_slide( kcc_controller* c, vec2s velocity, float dt, vec2s* out_velocity,
										  kcc_move_result* out )
{
	KCC_ASSERT( c != NULL, "kcc_controller_move_and_slide: controller is NULL" );
	if ( c == NULL )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	kcc_status status = KCC_OK;
	if ( kcc_is_valid_vec2( velocity ) == false || kcc_is_valid_float( dt ) == false )
	{
		status = KCC_ERROR_NOT_FINITE;
	}
	else if ( dt <= 0.0f )
	{
		status = KCC_ERROR_INVALID_ARGUMENT;
	}
	vec2s delta = glms_vec2_scale( velocity, dt );
	if ( status == KCC_OK && kcc_is_valid_vec2( delta ) == false )
	{
		status = KCC_ERROR_TOO_LARGE;
	}
	kcc_move_result local;
	kcc_move_result* result = out != NULL ? out : &local;
	if ( status != KCC_OK )
	{
		kcc_clear_result( result, c->position, c->flags, c->floor_normal );
		if ( out_velocity != NULL )
		{
			*out_velocity = kcc_is_valid_vec2( velocity ) ? velocity : kcc_v2( 0.0f, 0.0f );
		}
		return status;
	}
	status = kcc_controller_move( c, delta, result );
	if ( out_velocity != NULL )
	{
		if ( status != KCC_OK )
		{
			*out_velocity = velocity;
			return status;
		}
		kcc_slide_params params = kcc_params( c );
		*out_velocity = kcc_clip_velocity( &params, velocity, result->collisions, result->collision_count,
										   ( result->flags & KCC_ON_FLOOR ) != 0, result->floor_normal );
	}
	return status;
}

// ---------------------------------------------------------------------------------------------------------------
// Accessors and state

// A teleport or a restored state leaves no platform to ride and no shape to drop through.
static void kcc_forget_floor( kcc_controller* c )
{
	c->floor_shape = NULL;
	c->floor_one_way = false;
	c->drop_shape = NULL;
	c->platform = NULL;
}

bool kcc_controller_drop_through( kcc_controller* c )
{
	KCC_ASSERT( c != NULL, "kcc_controller_drop_through: controller is NULL" );
	if ( c == NULL || ( c->flags & KCC_ON_FLOOR ) == 0 || c->floor_one_way == false )
	{
		return false;
	}
	c->drop_shape = c->floor_shape;
	return true;
}

vec2s kcc_controller_get_position( const kcc_controller* c )
{
	KCC_ASSERT( c != NULL, "kcc_controller_get_position: controller is NULL" );
	return c != NULL ? c->position : kcc_v2( 0.0f, 0.0f );
}

kcc_status kcc_controller_set_position( kcc_controller* c, vec2s p )
{
	KCC_ASSERT( c != NULL, "kcc_controller_set_position: controller is NULL" );
	if ( c == NULL )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	kcc_status status = kcc_validate_position( c, p );
	if ( status != KCC_OK )
	{
		return status;
	}
	c->position = p;
	c->flags = 0;
	c->floor_normal = c->def.up;
	kcc_forget_floor( c );
	kcc_world_sync_body( c );
	return KCC_OK;
}

uint32_t kcc_controller_get_flags( const kcc_controller* c )
{
	KCC_ASSERT( c != NULL, "kcc_controller_get_flags: controller is NULL" );
	return c != NULL ? c->flags : 0u;
}

bool kcc_controller_is_on_floor( const kcc_controller* c )
{
	KCC_ASSERT( c != NULL, "kcc_controller_is_on_floor: controller is NULL" );
	return c != NULL && ( c->flags & KCC_ON_FLOOR ) != 0;
}

cpBody* kcc_controller_get_body( const kcc_controller* c )
{
	KCC_ASSERT( c != NULL, "kcc_controller_get_body: controller is NULL" );
	return c != NULL ? c->body : NULL;
}

cpShape* kcc_controller_get_shape( const kcc_controller* c )
{
	KCC_ASSERT( c != NULL, "kcc_controller_get_shape: controller is NULL" );
	return c != NULL ? c->shape : NULL;
}

kcc_controller_state kcc_controller_get_state( const kcc_controller* c )
{
	KCC_ASSERT( c != NULL, "kcc_controller_get_state: controller is NULL" );
	kcc_controller_state s;
	memset( &s, 0, sizeof( s ) );
	if ( c == NULL )
	{
		return s;
	}
	s.position = c->position;
	s.flags = c->flags;
	s.floor_normal = c->floor_normal;
	s.internal_cookie = KCC_STATE_COOKIE;
	return s;
}

kcc_status kcc_controller_set_state( kcc_controller* c, const kcc_controller_state* state )
{
	KCC_ASSERT( c != NULL && state != NULL, "kcc_controller_set_state: controller or state is NULL" );
	if ( c == NULL || state == NULL )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	if ( state->internal_cookie != KCC_STATE_COOKIE )
	{
		return KCC_ERROR_INVALID_ARGUMENT;
	}
	if ( kcc_is_valid_vec2( state->floor_normal ) == false )
	{
		return KCC_ERROR_NOT_FINITE;
	}
	kcc_status status = kcc_validate_position( c, state->position );
	if ( status != KCC_OK )
	{
		return status;
	}
	c->position = state->position;
	c->flags = state->flags;
	c->floor_normal = state->floor_normal;
	kcc_forget_floor( c );
	kcc_world_sync_body( c );
	return KCC_OK;
}

const char* kcc_status_string( kcc_status s )
{
	switch ( s )
	{
		case KCC_OK:
			return "ok";
		case KCC_ERROR_NULL_ARGUMENT:
			return "a required pointer was NULL";
		case KCC_ERROR_NOT_FINITE:
			return "an input had a NaN or infinite component";
		case KCC_ERROR_TOO_LARGE:
			return "a displacement or position beyond the def's limits (max_displacement, max_coordinate)";
		case KCC_ERROR_INVALID_ARGUMENT:
			return "an argument out of range (dt <= 0, a foreign state snapshot)";
		default:
			return "unknown status";
	}
}
