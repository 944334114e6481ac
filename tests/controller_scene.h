// SPDX-License-Identifier: MIT
// Scene builders for controller tests (and the demo): a real cpSpace with static level shapes (separate 1x1
// tiles, boxes, slopes, V creases, thin walls, segments, circles), the three test characters, and an overlap /
// gap measure that is independent of the controller (Chipmunk's cpShapesCollide and the core's penetration and
// distance queries on copies of the shapes).
//
// Usage:
//   scene* s = scene_create( 1.0f );                 // -1.0f builds the mirrored world (x -> -x)
//   scene_add_tile_row( s, -10, 0, 300 );             // floor of 300 separate tiles, top at y = 1
//   kcc_controller_def def = kcc_default_controller_def();
//   def.shape = test_character_shape( TEST_CAPSULE );
//   def.position = kcc_v2( 0.0f, 1.0f + test_character_half_height( TEST_CAPSULE ) + def.skin );
//   kcc_controller* c = scene_create_controller( s, &def );   // adds the level to the space first
//   ... kcc_controller_move( c, ... ); float depth = scene_overlap( s, &def.shape, kcc_controller_get_position( c ) );
//   kcc_controller_destroy( c ); scene_destroy( s );
//
// Every helper is static inline so that each test executable takes only what it uses.
#pragma once

#include "kcc/controller.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SCENE_MAX_SHAPES 4096
#define SCENE_MAX_EXTRAS 64
#define SCENE_PI 3.14159265358979323846f

/// The three characters every scenario runs with.
typedef enum test_character_kind
{
	TEST_CIRCLE = 0,  ///< radius 0.4 (0.8 tall)
	TEST_CAPSULE = 1, ///< the default: segment (0, -0.3)..(0, 0.3), radius 0.3 (1.2 tall, 0.6 wide)
	TEST_BOX = 2,     ///< rounded box: half extents (0.3, 0.45), radius 0.05 (0.7 wide, 1.0 tall)
	TEST_CHARACTER_COUNT
} test_character_kind;

static inline const char* test_character_name( int kind )
{
	static const char* names[TEST_CHARACTER_COUNT] = { "circle", "capsule", "rounded box" };
	return kind >= 0 && kind < TEST_CHARACTER_COUNT ? names[kind] : "?";
}

/// The character's shape around its position (the origin).
static inline kcc_shape test_character_shape( int kind )
{
	switch ( kind )
	{
		case TEST_CIRCLE:
			return kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 0.4f );
		case TEST_CAPSULE:
			return kcc_make_capsule( kcc_v2( 0.0f, -0.3f ), kcc_v2( 0.0f, 0.3f ), 0.3f );
		default:
			return kcc_make_box( kcc_v2( 0.3f, 0.45f ), 0.05f );
	}
}

/// Full height of the character (world units).
static inline float test_character_height( int kind )
{
	static const float heights[TEST_CHARACTER_COUNT] = { 0.8f, 1.2f, 1.0f };
	return heights[kind];
}

/// Distance from the position to the lowest (and highest) point.
static inline float test_character_half_height( int kind )
{
	return 0.5f * test_character_height( kind );
}

/// Distance from the position to the leftmost (and rightmost) point.
static inline float test_character_half_width( int kind )
{
	static const float half_widths[TEST_CHARACTER_COUNT] = { 0.4f, 0.3f, 0.35f };
	return half_widths[kind];
}

/// A default def for the given character at the given position.
static inline kcc_controller_def test_character_def( int kind, vec2s position )
{
	kcc_controller_def def = kcc_default_controller_def();
	def.shape = test_character_shape( kind );
	def.position = position;
	return def;
}

/// A static level on a real cpSpace. Shapes are built first and given to the space by scene_commit (in the order
/// they were built, or shuffled by a seed), so that tests can check insertion-order independence.
typedef struct scene
{
	cpSpace* space;
	float mirror; ///< +1, or -1: every builder maps x -> -x (the mirrored world)
	int count;
	int committed; ///< shapes already in the space
	cpShape* shapes[SCENE_MAX_SHAPES];
	kcc_shape geometry[SCENE_MAX_SHAPES]; ///< the same shapes for the core's queries (independent measure)
	cpBody* probe_body;                   ///< kinematic body outside the space, carries the probe
	cpShape* probe;                       ///< Chipmunk copy of the measured character shape
	kcc_shape probe_geometry;             ///< the shape the probe was built from
	int extra_count;                      ///< bodies' shapes and sensors (scene_add_sensor_box ...): not measured
	cpShape* extras[SCENE_MAX_EXTRAS];
} scene;

static inline scene* scene_create( float mirror )
{
	scene* s = (scene*)calloc( 1, sizeof( scene ) );
	if ( s == NULL )
	{
		abort();
	}
	s->space = cpSpaceNew();
	s->mirror = mirror < 0.0f ? -1.0f : 1.0f;
	s->probe_body = cpBodyNewKinematic();
	return s;
}

/// Removes and frees every level shape, then the space. Destroy the controllers first.
static inline void scene_destroy( scene* s )
{
	if ( s == NULL )
	{
		return;
	}
	for ( int i = 0; i < s->count; ++i )
	{
		if ( i < s->committed )
		{
			cpSpaceRemoveShape( s->space, s->shapes[i] );
		}
		cpShapeFree( s->shapes[i] );
	}
	for ( int i = 0; i < s->extra_count; ++i )
	{
		cpBody* body = cpShapeGetBody( s->extras[i] );
		cpSpaceRemoveShape( s->space, s->extras[i] );
		cpShapeFree( s->extras[i] );
		if ( body != cpSpaceGetStaticBody( s->space ) )
		{
			cpSpaceRemoveBody( s->space, body );
			cpBodyFree( body );
		}
	}
	if ( s->probe != NULL )
	{
		cpShapeFree( s->probe );
	}
	cpBodyFree( s->probe_body );
	cpSpaceFree( s->space );
	free( s );
}

static inline cpVect scene_cpv( const scene* s, float x, float y )
{
	return cpv( (cpFloat)( s->mirror * x ), (cpFloat)y );
}

static inline void scene_push( scene* s, cpShape* shape, kcc_shape geometry )
{
	if ( s->count >= SCENE_MAX_SHAPES || shape == NULL || kcc_shape_is_valid( &geometry ) == false )
	{
		abort(); // a broken test scene: fail loudly rather than measure against a wrong level
	}
	s->shapes[s->count] = shape;
	s->geometry[s->count] = geometry;
	s->count += 1;
}

/// Convex polygon from points (any winding; mirrored when the scene is), with a rounding radius.
static inline cpShape* scene_add_polygon( scene* s, const vec2s* points, int count, float radius )
{
	cpVect verts[KCC_MAX_POLYGON_VERTICES];
	vec2s mirrored[KCC_MAX_POLYGON_VERTICES];
	if ( count > KCC_MAX_POLYGON_VERTICES )
	{
		abort();
	}
	for ( int i = 0; i < count; ++i )
	{
		verts[i] = scene_cpv( s, points[i].x, points[i].y );
		mirrored[i] = kcc_v2( s->mirror * points[i].x, points[i].y );
	}
	cpShape* shape = cpPolyShapeNew( cpSpaceGetStaticBody( s->space ), count, verts, cpTransformIdentity, radius );
	scene_push( s, shape, kcc_make_polygon( mirrored, count, radius ) );
	return shape;
}

/// Axis-aligned box [min_x, max_x] x [min_y, max_y] (before mirroring).
static inline cpShape* scene_add_box( scene* s, float min_x, float min_y, float max_x, float max_y )
{
	vec2s points[4] = { { { min_x, min_y } }, { { max_x, min_y } }, { { max_x, max_y } }, { { min_x, max_y } } };
	return scene_add_polygon( s, points, 4, 0.0f );
}

/// One 1x1 tile covering [x, x + 1] x [y, y + 1].
static inline cpShape* scene_add_tile( scene* s, int x, int y )
{
	return scene_add_box( s, (float)x, (float)y, (float)x + 1.0f, (float)y + 1.0f );
}

/// count separate 1x1 tiles in a row from cell (x, y) to the right: a floor (top at y + 1) or a ceiling (bottom at y).
static inline void scene_add_tile_row( scene* s, int x, int y, int count )
{
	for ( int i = 0; i < count; ++i )
	{
		scene_add_tile( s, x + i, y );
	}
}

/// count separate 1x1 tiles in a column from cell (x, y) upward: a wall.
static inline void scene_add_tile_column( scene* s, int x, int y, int count )
{
	for ( int i = 0; i < count; ++i )
	{
		scene_add_tile( s, x, y + i );
	}
}

/// Segment shape (radius 0 is a zero-thickness wall).
static inline cpShape* scene_add_segment( scene* s, vec2s a, vec2s b, float radius )
{
	cpShape* shape = cpSegmentShapeNew( cpSpaceGetStaticBody( s->space ), scene_cpv( s, a.x, a.y ),
										scene_cpv( s, b.x, b.y ), radius );
	scene_push( s, shape,
				kcc_make_capsule( kcc_v2( s->mirror * a.x, a.y ), kcc_v2( s->mirror * b.x, b.y ), radius ) );
	return shape;
}

static inline cpShape* scene_add_circle( scene* s, vec2s center, float radius )
{
	cpShape* shape = cpCircleShapeNew( cpSpaceGetStaticBody( s->space ), radius, scene_cpv( s, center.x, center.y ) );
	scene_push( s, shape, kcc_make_circle( kcc_v2( s->mirror * center.x, center.y ), radius ) );
	return shape;
}

/// A slab whose top surface starts at start and rises at angle (radians; negative falls) over a horizontal run
/// (> 0) to the right; the slab reaches down to start.y - depth below the lower end of the surface.
/// The surface normal is (-sin angle, cos angle).
static inline cpShape* scene_add_slope( scene* s, vec2s start, float angle, float run, float depth )
{
	float rise = run * tanf( angle );
	float bottom = ( rise < 0.0f ? start.y + rise : start.y ) - depth;
	vec2s points[4] = {
		start, { { start.x + run, start.y + rise } }, { { start.x + run, bottom } }, { { start.x, bottom } } };
	return scene_add_polygon( s, points, 4, 0.0f );
}

/// A V crease opening upward with its vertex at vertex: two slabs of the given thickness whose surfaces meet at
/// the vertex at the full opening angle (radians, between the two surfaces), each length long.
static inline void scene_add_crease( scene* s, vec2s vertex, float opening, float length, float thickness )
{
	// Each surface makes (pi - opening) / 2 with the horizontal.
	float tilt = 0.5f * ( SCENE_PI - opening );
	float c = cosf( tilt ), sn = sinf( tilt );
	for ( int side = -1; side <= 1; side += 2 )
	{
		vec2s direction = kcc_v2( (float)side * c, sn );      // along the surface, away from the vertex
		vec2s normal = kcc_v2( -(float)side * sn, c );       // out of the surface, into the valley
		vec2s far_end = kcc_v2( vertex.x + length * direction.x, vertex.y + length * direction.y );
		vec2s points[4] = { vertex, far_end,
							{ { far_end.x - thickness * normal.x, far_end.y - thickness * normal.y } },
							{ { vertex.x - thickness * normal.x, vertex.y - thickness * normal.y } } };
		scene_add_polygon( s, points, 4, 0.0f );
	}
}

/// Gives the shapes built so far to the space: in build order when seed is 0, else in an order shuffled by seed.
static inline void scene_commit( scene* s, uint32_t seed )
{
	int first = s->committed;
	int n = s->count - first;
	int order[SCENE_MAX_SHAPES];
	for ( int i = 0; i < n; ++i )
	{
		order[i] = first + i;
	}
	uint32_t state = seed;
	for ( int i = n - 1; seed != 0 && i > 0; --i )
	{
		state = state * 1664525u + 1013904223u;
		int j = (int)( ( state >> 8 ) % (uint32_t)( i + 1 ) );
		int t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for ( int i = 0; i < n; ++i )
	{
		cpSpaceAddShape( s->space, s->shapes[order[i]] );
	}
	s->committed = s->count;
	if ( n > 0 )
	{
		kcc_space_static_changed( s->space ); // as a game does after adding static shapes
	}
}

/// Commits the level (build order) and creates a controller in the space.
static inline kcc_controller* scene_create_controller( scene* s, const kcc_controller_def* def )
{
	scene_commit( s, 0 );
	return kcc_controller_create( s->space, def );
}

// ---------------------------------------------------------------------------------------------------------------
// Independent measures. They never use the controller's own shape or queries.

static inline cpShape* scene_make_chipmunk_shape( cpBody* body, const kcc_shape* shape )
{
	switch ( shape->type )
	{
		case KCC_SHAPE_CIRCLE:
			return cpCircleShapeNew( body, shape->circle.radius, cpv( shape->circle.center.x, shape->circle.center.y ) );
		case KCC_SHAPE_CAPSULE:
			return cpSegmentShapeNew( body, cpv( shape->capsule.a.x, shape->capsule.a.y ),
									  cpv( shape->capsule.b.x, shape->capsule.b.y ), shape->capsule.radius );
		case KCC_SHAPE_POLYGON:
		{
			cpVect verts[KCC_MAX_POLYGON_VERTICES];
			for ( int i = 0; i < shape->polygon.count; ++i )
			{
				verts[i] = cpv( shape->polygon.vertices[i].x, shape->polygon.vertices[i].y );
			}
			return cpPolyShapeNewRaw( body, shape->polygon.count, verts, shape->polygon.radius );
		}
		case KCC_SHAPE_AABB:
			return cpBoxShapeNew2( body, cpBBNew( shape->aabb.min.x, shape->aabb.min.y, shape->aabb.max.x,
												  shape->aabb.max.y ), 0.0 );
		default:
			abort(); // the test characters are circles, capsules and polygons
	}
}

/// Places the Chipmunk probe (a copy of shape) at position; rebuilt when the shape changes.
static inline void scene_place_probe( scene* s, const kcc_shape* shape, vec2s position )
{
	if ( s->probe == NULL || memcmp( &s->probe_geometry, shape, sizeof( kcc_shape ) ) != 0 )
	{
		if ( s->probe != NULL )
		{
			cpShapeFree( s->probe );
		}
		s->probe = scene_make_chipmunk_shape( s->probe_body, shape );
		s->probe_geometry = *shape;
	}
	cpShapeUpdate( s->probe, cpTransformTranslate( cpv( position.x, position.y ) ) );
}

/// Deepest overlap (world units, 0 when clear) of the character shape at position with any level shape:
/// the larger of Chipmunk's cpShapesCollide depth and the core's kcc_penetration depth, so that a bug in either
/// cannot hide an overlap. Chipmunk reports contacts only for touching or overlapping pairs; the magnitude of
/// its distance is used because for some pairs (polygon against segment) its sign comes out wrong.
static inline float scene_overlap( scene* s, const kcc_shape* shape, vec2s position )
{
	scene_place_probe( s, shape, position );
	cpBB probe_bounds = cpShapeGetBB( s->probe );
	kcc_shape placed = kcc_shape_translate( shape, position );
	float deepest = 0.0f;
	for ( int i = 0; i < s->count; ++i )
	{
		cpBB bounds = cpShapeGetBB( s->shapes[i] );
		if ( i >= s->committed )
		{
			bounds = cpShapeUpdate( s->shapes[i], cpTransformIdentity );
		}
		if ( cpBBIntersects( probe_bounds, bounds ) == cpFalse )
		{
			continue;
		}
		cpContactPointSet set = cpShapesCollide( s->probe, s->shapes[i] );
		for ( int k = 0; k < set.count; ++k )
		{
			float depth = (float)fabs( set.points[k].distance );
			deepest = depth > deepest ? depth : deepest;
		}
		kcc_penetration_output p = kcc_penetration( &placed, &s->geometry[i] );
		if ( p.overlapping && p.depth > deepest )
		{
			deepest = p.depth;
		}
	}
	return deepest;
}

/// Nearest level shape to the character shape at position, within reach: distance (FLT_MAX when nothing is within
/// reach of the shape's bounds; 0 when overlapping) and the unit normal from the character toward it.
static inline kcc_distance_output scene_nearest( scene* s, const kcc_shape* shape, vec2s position, float reach )
{
	kcc_shape placed = kcc_shape_translate( shape, position );
	kcc_aabb b = kcc_shape_bounds( &placed );
	cpBB query = cpBBNew( b.min.x - reach, b.min.y - reach, b.max.x + reach, b.max.y + reach );
	kcc_distance_output nearest;
	memset( &nearest, 0, sizeof( nearest ) );
	nearest.distance = FLT_MAX;
	for ( int i = 0; i < s->count; ++i )
	{
		if ( cpBBIntersects( query, cpShapeGetBB( s->shapes[i] ) ) == cpFalse )
		{
			continue;
		}
		kcc_distance_output d = kcc_distance( &placed, &s->geometry[i] );
		nearest = d.distance < nearest.distance ? d : nearest;
	}
	return nearest;
}

/// Smallest distance (world units) from the character shape at position to any level shape within reach.
static inline float scene_gap( scene* s, const kcc_shape* shape, vec2s position, float reach )
{
	return scene_nearest( s, shape, position, reach ).distance;
}

/// Largest |component| difference of two vectors.
static inline float test_vec2_difference( vec2s a, vec2s b )
{
	float dx = fabsf( a.x - b.x ), dy = fabsf( a.y - b.y );
	return dx > dy ? dx : dy;
}

/// One velocity-level step under gravity, as a platformer does it: v.x = vx, v.y -= gravity * dt, then
/// move_and_slide, which writes the clipped velocity back into *velocity.
static inline kcc_status test_gravity_step( kcc_controller* c, vec2s* velocity, float vx, float gravity, float dt,
											kcc_move_result* out )
{
	vec2s v = *velocity;
	v.x = vx;
	v.y -= gravity * dt;
	return kcc_controller_move_and_slide( c, v, dt, velocity, out );
}

/// Gravity-only steps (at most 240) until the character has reported the floor in floor_steps moves in a row;
/// false if it never did or a move failed.
static inline bool test_settle( kcc_controller* c, vec2s* velocity, float gravity, float dt, int floor_steps )
{
	int in_a_row = 0;
	for ( int i = 0; i < 240 && in_a_row < floor_steps; ++i )
	{
		kcc_move_result result;
		if ( test_gravity_step( c, velocity, 0.0f, gravity, dt, &result ) != KCC_OK )
		{
			return false;
		}
		in_a_row = ( result.flags & KCC_ON_FLOOR ) ? in_a_row + 1 : 0;
	}
	return in_a_row >= floor_steps;
}

/// A long slope through the origin rising to the right at angle, from x = -40 to x = 40, 5 thick.
static inline void scene_add_long_slope( scene* s, float angle )
{
	scene_add_slope( s, kcc_v2( -40.0f, -40.0f * tanf( angle ) ), angle, 80.0f, 5.0f );
}

/// Small deterministic generator for randomised scenarios (LCG, top bits).
static inline float test_random( uint32_t* state, float lo, float hi )
{
	*state = *state * 1664525u + 1013904223u;
	return lo + ( hi - lo ) * (float)( *state >> 8 ) * ( 1.0f / 16777216.0f );
}

// ---------------------------------------------------------------------------------------------------------------
// Gameplay: stairs, zones and bodies. Sensors and shapes on their own bodies go straight into the space and are
// not part of the measured level (scene_overlap and scene_gap ignore them: a test measures a pushed box or a
// platform itself); they are not mirrored; scene_destroy removes and frees them.

/// A flight of count steps going right from the floor's edge at (x, y): each rise high and run deep, solid down to
/// y - 1, then a landing landing long at the top. Before mirroring.
static inline void scene_add_stairs( scene* s, float x, float y, int count, float rise, float run, float landing )
{
	for ( int i = 0; i < count; ++i )
	{
		float last = i + 1 == count ? landing : 0.0f;
		scene_add_box( s, x + run * (float)i, y - 1.0f, x + run * (float)( i + 1 ) + last, y + rise * (float)( i + 1 ) );
	}
}

static inline cpShape* scene_keep_extra( scene* s, cpShape* shape )
{
	if ( s->extra_count >= SCENE_MAX_EXTRAS || shape == NULL )
	{
		abort();
	}
	s->extras[s->extra_count++] = shape;
	cpSpaceAddShape( s->space, shape );
	if ( cpBodyGetType( cpShapeGetBody( shape ) ) == CP_BODY_TYPE_STATIC )
	{
		kcc_space_static_changed( s->space ); // as a game does after adding static shapes
	}
	return shape;
}

/// A sensor box (a zone) on the static body, in the given filter categories.
static inline cpShape* scene_add_sensor_box( scene* s, float min_x, float min_y, float max_x, float max_y,
											 cpBitmask categories )
{
	cpShape* shape = cpBoxShapeNew2( cpSpaceGetStaticBody( s->space ), cpBBNew( min_x, min_y, max_x, max_y ), 0.0 );
	cpShapeSetSensor( shape, cpTrue );
	cpShapeSetFilter( shape, cpShapeFilterNew( CP_NO_GROUP, categories, CP_ALL_CATEGORIES ) );
	return scene_keep_extra( s, shape );
}

/// A box (half extents, rounding radius) on a body of its own at center: kinematic when mass is 0 (a moving
/// platform, a pushable crate), dynamic of that mass otherwise (its moment from the box). In the given categories.
static inline cpShape* scene_add_body_box( scene* s, vec2s center, vec2s half_extents, float radius, float mass,
										   cpBitmask categories )
{
	double w = 2.0 * half_extents.x, h = 2.0 * half_extents.y;
	cpBody* body = mass > 0.0f ? cpBodyNew( mass, cpMomentForBox( mass, w, h ) ) : cpBodyNewKinematic();
	cpBodySetPosition( body, cpv( center.x, center.y ) );
	cpSpaceAddBody( s->space, body );
	cpShape* shape = cpBoxShapeNew( body, w, h, radius );
	cpShapeSetFilter( shape, cpShapeFilterNew( CP_NO_GROUP, categories, CP_ALL_CATEGORIES ) );
	return scene_keep_extra( s, shape );
}

/// Removes and frees an extra shape (and its body unless static), as a game deleting it mid-scenario.
static inline void scene_remove_extra( scene* s, cpShape* shape )
{
	for ( int i = 0; i < s->extra_count; ++i )
	{
		if ( s->extras[i] == shape )
		{
			cpBody* body = cpShapeGetBody( shape );
			cpSpaceRemoveShape( s->space, shape );
			cpShapeFree( shape );
			if ( body != cpSpaceGetStaticBody( s->space ) )
			{
				cpSpaceRemoveBody( s->space, body );
				cpBodyFree( body );
			}
			else
			{
				kcc_space_static_changed( s->space ); // as a game does after removing static shapes
			}
			s->extras[i] = s->extras[--s->extra_count];
			return;
		}
	}
	abort();
}

/// A body's polygon shape where it is now, as a core polygon (for measures independent of the controller).
static inline kcc_shape scene_body_box_geometry( const cpShape* shape )
{
	cpBody* body = cpShapeGetBody( shape );
	int count = cpPolyShapeGetCount( shape );
	vec2s points[KCC_MAX_POLYGON_VERTICES];
	for ( int i = 0; i < count && i < KCC_MAX_POLYGON_VERTICES; ++i )
	{
		cpVect p = cpBodyLocalToWorld( body, cpPolyShapeGetVert( shape, i ) );
		points[i] = kcc_v2( (float)p.x, (float)p.y );
	}
	return kcc_make_polygon( points, count, (float)cpPolyShapeGetRadius( shape ) );
}

/// Distance from the character shape at position to other (world coordinates); 0 when they overlap.
static inline float scene_distance_to( const kcc_shape* character, vec2s position, const kcc_shape* other )
{
	kcc_shape placed = kcc_shape_translate( character, position );
	return kcc_distance( &placed, other ).distance;
}

/// Overlap depth of the character shape at position with other (0 when apart).
static inline float scene_depth_in( const kcc_shape* character, vec2s position, const kcc_shape* other )
{
	kcc_shape placed = kcc_shape_translate( character, position );
	kcc_penetration_output p = kcc_penetration( &placed, other );
	return p.overlapping ? p.depth : 0.0f;
}

/// Moves a kinematic body to p, as a game moves a platform by position: set and reindex.
static inline void scene_place_body( scene* s, cpBody* body, vec2s p )
{
	cpBodySetPosition( body, cpv( p.x, p.y ) );
	cpSpaceReindexShapesForBody( s->space, body );
}

static inline vec2s scene_body_position( const cpShape* shape )
{
	cpVect p = cpBodyGetPosition( cpShapeGetBody( shape ) );
	return kcc_v2( (float)p.x, (float)p.y );
}

/// Whether kcc_controller_def_problem refuses a default def whose float field at offset (offsetof( kcc_controller_def,
/// field )) is value, with a message naming field.
static inline bool test_def_refuses( size_t offset, float value, const char* field )
{
	kcc_controller_def def = kcc_default_controller_def();
	memcpy( (char*)&def + offset, &value, sizeof( value ) );
	const char* problem = kcc_controller_def_problem( &def );
	return problem != NULL && strstr( problem, field ) != NULL;
}

#if defined( CMOCKA_H_ )
/// Fails the running test with a message when cond is false (CMocka's asserts print no context).
#define SCENE_CHECK( cond, ... )                                                                                   \
	do                                                                                                             \
	{                                                                                                              \
		if ( !( cond ) )                                                                                           \
		{                                                                                                          \
			print_error( __VA_ARGS__ );                                                                            \
			print_error( "\n" );                                                                                   \
			fail();                                                                                                \
		}                                                                                                          \
	}                                                                                                              \
	while ( 0 )
#endif
