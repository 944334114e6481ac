// SPDX-License-Identifier: MIT
// Sensors and polygons (docs/controller.md, the move, steps 2 and 6) on a real cpSpace:
// - a sensor shape overlapping the character's final shape is reported in result.sensors and never blocks; one
//   the swept path crosses but the final shape does not overlap is not reported; of more than KCC_MAX_SENSORS
//   overlapping sensors the KCC_MAX_SENSORS with the smallest hashid (the first added) are reported, in order;
// - Chipmunk polygons with more than KCC_MAX_POLYGON_VERTICES vertices (split into pieces by the controller): as a
//   sensor they are reported exactly when overlapping, as level geometry their walls block and their tops hold;
// - a convex hexagon character stands, walks over tile seams and is blocked by walls like the other characters.
// Overlaps are decided independently of the controller: Chipmunk's cpShapesCollide on a copy of the character,
// and distances to a big polygon as the smallest distance to its triangles (our own fan, not the controller's).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "controller_scene.h"

#define DT ( 1.0f / 60.0f )
#define GRAVITY 30.0f
#define DEG ( SCENE_PI / 180.0f )
#define MAX_EXTRA 64
#define MAX_BIG_VERTICES 32

// The hexagon character: circumradius 0.5, a vertex pointing right, flat bottom and top (0.866 tall, 1 wide).
#define HEXAGON_KIND TEST_CHARACTER_COUNT
#define KIND_COUNT ( TEST_CHARACTER_COUNT + 1 )

static kcc_shape character_shape( int kind )
{
	if ( kind == HEXAGON_KIND )
	{
		vec2s points[6];
		for ( int i = 0; i < 6; ++i )
		{
			float a = (float)i * SCENE_PI / 3.0f;
			points[i] = kcc_v2( 0.5f * cosf( a ), 0.5f * sinf( a ) );
		}
		return kcc_make_polygon( points, 6, 0.0f );
	}
	return test_character_shape( kind );
}

static const char* character_name( int kind )
{
	return kind == HEXAGON_KIND ? "hexagon" : test_character_name( kind );
}

static float character_half_height( int kind )
{
	return kind == HEXAGON_KIND ? 0.5f * sinf( SCENE_PI / 3.0f ) : test_character_half_height( kind );
}

static float character_half_width( int kind )
{
	return kind == HEXAGON_KIND ? 0.5f : test_character_half_width( kind );
}

static kcc_controller_def character_def( int kind, vec2s position )
{
	kcc_controller_def def = kcc_default_controller_def();
	def.shape = character_shape( kind );
	def.position = position;
	return def;
}

// Shapes kept out of the scene's own overlap measure (sensors, polygons with more than 8 vertices): added to the
// space directly, removed and freed by extras_destroy before scene_destroy.
typedef struct extras
{
	cpSpace* space;
	int count;
	cpShape* shapes[MAX_EXTRA];
	int vertex_count[MAX_EXTRA];              // big polygons: their vertices for the independent measure
	vec2s vertices[MAX_EXTRA][MAX_BIG_VERTICES];
} extras;

static cpShape* extras_add( extras* e, cpShape* shape, bool sensor )
{
	if ( e->count >= MAX_EXTRA )
	{
		abort();
	}
	cpShapeSetSensor( shape, sensor ? cpTrue : cpFalse );
	cpSpaceAddShape( e->space, shape );
	kcc_space_static_changed( e->space ); // a static shape added
	e->vertex_count[e->count] = 0;
	e->shapes[e->count++] = shape;
	return shape;
}

static cpShape* extras_add_box( extras* e, float min_x, float min_y, float max_x, float max_y, bool sensor )
{
	cpShape* shape = cpBoxShapeNew2( cpSpaceGetStaticBody( e->space ), cpBBNew( min_x, min_y, max_x, max_y ), 0.0 );
	return extras_add( e, shape, sensor );
}

// A convex polygon of any vertex count (counter-clockwise points).
static cpShape* extras_add_big_polygon( extras* e, const vec2s* points, int count, bool sensor )
{
	cpVect verts[MAX_BIG_VERTICES];
	if ( count > MAX_BIG_VERTICES )
	{
		abort();
	}
	for ( int i = 0; i < count; ++i )
	{
		verts[i] = cpv( points[i].x, points[i].y );
	}
	cpShape* shape = cpPolyShapeNew( cpSpaceGetStaticBody( e->space ), count, verts, cpTransformIdentity, 0.0 );
	SCENE_CHECK( cpPolyShapeGetCount( shape ) == count, "big polygon: Chipmunk kept %d of %d vertices",
				 cpPolyShapeGetCount( shape ), count );
	int index = e->count;
	extras_add( e, shape, sensor );
	e->vertex_count[index] = count;
	memcpy( e->vertices[index], points, (size_t)count * sizeof( vec2s ) );
	return shape;
}

static void extras_destroy( extras* e )
{
	for ( int i = 0; i < e->count; ++i )
	{
		cpSpaceRemoveShape( e->space, e->shapes[i] );
		cpShapeFree( e->shapes[i] );
	}
	e->count = 0;
	kcc_space_static_changed( e->space ); // static shapes removed
}

// Chipmunk's verdict on the character shape at position against one shape: the deepest contact (> 0 when
// overlapping), or 0 when apart.
static float chipmunk_depth( scene* s, const kcc_shape* character, vec2s position, cpShape* other )
{
	scene_place_probe( s, character, position );
	cpContactPointSet set = cpShapesCollide( s->probe, other );
	float deepest = 0.0f;
	for ( int k = 0; k < set.count; ++k )
	{
		float depth = (float)fabs( set.points[k].distance );
		deepest = depth > deepest ? depth : deepest;
	}
	return set.count > 0 ? fmaxf( deepest, FLT_MIN ) : 0.0f;
}

// Distance from the character at position to big polygon index of e, as the smallest distance to its fan
// triangles (0 when overlapping).
static float big_polygon_distance( const extras* e, int index, const kcc_shape* character, vec2s position )
{
	kcc_shape placed = kcc_shape_translate( character, position );
	const vec2s* v = e->vertices[index];
	float nearest = FLT_MAX;
	for ( int i = 1; i + 1 < e->vertex_count[index]; ++i )
	{
		vec2s triangle[3] = { v[0], v[i], v[i + 1] };
		kcc_shape t = kcc_make_polygon( triangle, 3, 0.0f );
		float d = kcc_distance( &placed, &t ).distance;
		nearest = d < nearest ? d : nearest;
	}
	return nearest;
}

// Whether shape is among the reported sensors.
static bool reported( const kcc_move_result* result, const cpShape* shape )
{
	for ( int i = 0; i < result->sensor_count; ++i )
	{
		if ( result->sensors[i] == shape )
		{
			return true;
		}
	}
	return false;
}

// ---------------------------------------------------------------------------------------------------------------
// Sensors

// Walking through a sensor zone on a tiled floor at 0.125 per move (exact in float): every move covers exactly its
// displacement (the sensor never blocks) and the sensor is reported exactly when the final shape overlaps it.
static void test_sensor_reported_when_overlapping_and_never_blocks( void** state )
{
	(void)state;
	for ( int mode = 0; mode < 2; ++mode )
	{
		for ( int kind = 0; kind < KIND_COUNT; ++kind )
		{
			scene* s = scene_create( 1.0f );
			scene_add_tile_row( s, -5, -1, 20 ); // top at 0
			float half_height = character_half_height( kind );
			kcc_controller_def def = character_def( kind, kcc_v2( 0.0f, half_height + 0.01f ) );
			def.mode = mode == 0 ? KCC_MODE_GROUNDED : KCC_MODE_FLOATING;
			kcc_controller* c = scene_create_controller( s, &def );
			assert_non_null( c );
			extras e = { .space = s->space };
			cpShape* zone = extras_add_box( &e, 2.0f, 0.5f, 4.0f, 3.0f, true ); // a zone above the floor
			const char* name = character_name( kind );
			int inside = 0, outside = 0;
			for ( int move = 0; move < 48; ++move )
			{
				vec2s before = kcc_controller_get_position( c );
				kcc_move_result result;
				assert_int_equal( kcc_controller_move( c, kcc_v2( 0.125f, 0.0f ), &result ), KCC_OK );
				SCENE_CHECK( result.position.x == before.x + 0.125f && result.position.y == before.y,
							 "%s mode %d move %d: moved (%.7g, %.7g), not (0.125, 0)", name, mode, move,
							 (double)( result.position.x - before.x ), (double)( result.position.y - before.y ) );
				SCENE_CHECK( ( result.flags & ( KCC_ON_WALL | KCC_ON_CEILING ) ) == 0,
							 "%s mode %d move %d: the sensor blocked (flags 0x%x)", name, mode, move,
							 (unsigned)result.flags );
				for ( int i = 0; i < result.collision_count; ++i )
				{
					SCENE_CHECK( result.collisions[i].shape != zone, "%s: a collision with the sensor", name );
				}
				float depth = chipmunk_depth( s, &def.shape, result.position, zone );
				kcc_shape placed = kcc_shape_translate( &def.shape, result.position );
				kcc_shape box = kcc_make_aabb( kcc_v2( 2.0f, 0.5f ), kcc_v2( 4.0f, 3.0f ) );
				float distance = kcc_distance( &placed, &box ).distance;
				if ( ( depth > 0.0f && depth < 1e-4f ) || ( depth == 0.0f && distance < 1e-4f ) )
				{
					continue; // touching within rounding: either answer is right
				}
				bool expected = depth > 0.0f;
				SCENE_CHECK( reported( &result, zone ) == expected && result.sensor_count == ( expected ? 1 : 0 ),
							 "%s mode %d move %d at x %.4f: %d sensors reported, overlap %d", name, mode, move,
							 (double)result.position.x, result.sensor_count, (int)expected );
				inside += expected ? 1 : 0;
				outside += expected ? 0 : 1;
			}
			SCENE_CHECK( inside >= 10 && outside >= 10, "%s: %d moves inside, %d outside", name, inside, outside );
			kcc_controller_destroy( c );
			extras_destroy( &e );
			scene_destroy( s );
		}
	}
}

// A thin sensor crossed by one long move is not reported (the final shape does not overlap it); a move ending on
// it is; crossing it again is not.
static void test_sensor_crossed_but_not_overlapping_is_not_reported( void** state )
{
	(void)state;
	for ( int mode = 0; mode < 2; ++mode )
	{
		for ( int kind = 0; kind < KIND_COUNT; ++kind )
		{
			scene* s = scene_create( 1.0f );
			kcc_controller_def def = character_def( kind, kcc_v2( 0.0f, 0.0f ) );
			def.mode = mode == 0 ? KCC_MODE_GROUNDED : KCC_MODE_FLOATING;
			kcc_controller* c = scene_create_controller( s, &def );
			assert_non_null( c );
			extras e = { .space = s->space };
			cpShape* thin = extras_add_box( &e, 1.5f, -2.0f, 1.55f, 2.0f, true );
			const char* name = character_name( kind );
			kcc_move_result result;
			assert_int_equal( kcc_controller_move( c, kcc_v2( 3.0f, 0.0f ), &result ), KCC_OK );
			SCENE_CHECK( result.position.x == 3.0f && result.position.y == 0.0f, "%s: crossing stopped at (%g, %g)", name,
						 (double)result.position.x, (double)result.position.y );
			SCENE_CHECK( result.sensor_count == 0, "%s mode %d: crossed sensor reported", name, mode );
			assert_int_equal( kcc_controller_move( c, kcc_v2( -1.475f, 0.0f ), &result ), KCC_OK );
			SCENE_CHECK( result.sensor_count == 1 && result.sensors[0] == thin, "%s mode %d: sensor under the character "
						 "not reported (%d)", name, mode, result.sensor_count );
			assert_int_equal( kcc_controller_move( c, kcc_v2( -2.0f, 0.25f ), &result ), KCC_OK );
			SCENE_CHECK( result.sensor_count == 0, "%s mode %d: sensor left behind still reported", name, mode );
			// The optional result: the same moves without one work too.
			assert_int_equal( kcc_controller_move( c, kcc_v2( 2.0f, -0.25f ), NULL ), KCC_OK );
			kcc_controller_destroy( c );
			extras_destroy( &e );
			scene_destroy( s );
		}
	}
}

// Twelve sensors overlapping the character, added interleaved with sensors that do not overlap it and placed so
// that their order in space differs from their order of addition: the first KCC_MAX_SENSORS overlapping ones in
// the order of their bounding boxes (the smallest left edge first) are reported, each once, and the motion is not
// blocked.
static void test_more_sensors_than_reported( void** state )
{
	(void)state;
	for ( int kind = 0; kind < KIND_COUNT; ++kind )
	{
		scene* s = scene_create( 1.0f );
		kcc_controller_def def = character_def( kind, kcc_v2( -1.0f, 0.0f ) );
		def.mode = KCC_MODE_FLOATING;
		kcc_controller* c = scene_create_controller( s, &def );
		assert_non_null( c );
		extras e = { .space = s->space };
		cpShape* overlapping[12];
		for ( int i = 0; i < 12; ++i )
		{
			// Small boxes right to left around the origin (all within 0.2 of it), and far ones in between.
			float x = 0.1f - 0.02f * (float)i;
			overlapping[i] = extras_add_box( &e, x - 0.05f, -0.05f + 0.004f * (float)i, x + 0.05f, 0.05f, true );
			extras_add_box( &e, 5.0f + (float)i, 5.0f, 5.5f + (float)i, 5.5f, true );
		}
		const char* name = character_name( kind );
		kcc_move_result result;
		assert_int_equal( kcc_controller_move( c, kcc_v2( 1.0f, 0.0f ), &result ), KCC_OK );
		SCENE_CHECK( result.position.x == 0.0f && result.position.y == 0.0f, "%s: sensors blocked the move at (%g, %g)",
					 name, (double)result.position.x, (double)result.position.y );
		SCENE_CHECK( result.sensor_count == KCC_MAX_SENSORS, "%s: %d sensors reported, expected %d", name,
					 result.sensor_count, KCC_MAX_SENSORS );
		for ( int i = 0; i < result.sensor_count; ++i )
		{
			SCENE_CHECK( result.sensors[i] == overlapping[11 - i], "%s: sensor %d is not the %d-th from the left",
						 name, i, i );
		}
		kcc_controller_destroy( c );
		extras_destroy( &e );
		scene_destroy( s );
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Polygons with more than KCC_MAX_POLYGON_VERTICES vertices

// Regular polygon (counter-clockwise) of count vertices around center.
static void regular_polygon( vec2s* points, int count, vec2s center, float radius, float phase )
{
	for ( int i = 0; i < count; ++i )
	{
		float a = phase + 2.0f * SCENE_PI * (float)i / (float)count;
		points[i] = kcc_v2( center.x + radius * cosf( a ), center.y + radius * sinf( a ) );
	}
}

// A 12-gon sensor: reported exactly when the character overlaps it, along lines crossing every fan piece.
static void test_sensor_polygon_with_many_vertices( void** state )
{
	(void)state;
	for ( int kind = 0; kind < KIND_COUNT; ++kind )
	{
		scene* s = scene_create( 1.0f );
		kcc_controller_def def = character_def( kind, kcc_v2( 0.0f, 0.0f ) );
		def.mode = KCC_MODE_FLOATING;
		kcc_controller* c = scene_create_controller( s, &def );
		assert_non_null( c );
		extras e = { .space = s->space };
		vec2s points[12];
		regular_polygon( points, 12, kcc_v2( 5.0f, 0.0f ), 1.0f, 0.1f );
		cpShape* zone = extras_add_big_polygon( &e, points, 12, true );
		const char* name = character_name( kind );
		int inside = 0, outside = 0;
		for ( int line = -6; line <= 6; ++line )
		{
			float y = 0.25f * (float)line;
			assert_int_equal( kcc_controller_set_position( c, kcc_v2( 2.0f, y ) ), KCC_OK );
			for ( int move = 0; move < 120; ++move )
			{
				kcc_move_result result;
				assert_int_equal( kcc_controller_move( c, kcc_v2( 0.05f, 0.0f ), &result ), KCC_OK );
				SCENE_CHECK( fabsf( result.position.y - y ) <= 0.0f, "%s: the sensor deflected the move", name );
				float depth = chipmunk_depth( s, &def.shape, result.position, zone );
				float distance = big_polygon_distance( &e, 0, &def.shape, result.position );
				if ( ( depth > 0.0f && depth < 1e-4f ) || ( depth == 0.0f && distance < 1e-4f ) ||
					 ( depth > 0.0f ) != ( distance <= 0.0f ) )
				{
					continue; // touching within rounding (or the two measures disagree there): not judged
				}
				bool expected = depth > 0.0f;
				SCENE_CHECK( reported( &result, zone ) == expected, "%s at (%.4f, %.4f): reported %d, overlap %d", name,
							 (double)result.position.x, (double)result.position.y, (int)reported( &result, zone ),
							 (int)expected );
				SCENE_CHECK( result.sensor_count == ( expected ? 1 : 0 ), "%s: sensor reported %d times", name,
							 result.sensor_count );
				inside += expected ? 1 : 0;
				outside += expected ? 0 : 1;
			}
		}
		SCENE_CHECK( inside >= 200 && outside >= 200, "%s: %d moves inside, %d outside", name, inside, outside );
		kcc_controller_destroy( c );
		extras_destroy( &e );
		scene_destroy( s );
	}
}

// A gentle hill made of one Chipmunk polygon of 16 vertices (an arc of radius 20 from x = -6 to 6 through y = 0 at
// both ends, top at 0.92), tiles on both sides: walking across it keeps KCC_ON_FLOOR on every move, meets no wall,
// never overlaps, and crosses it.
static void test_level_polygon_with_many_vertices_holds( void** state )
{
	(void)state;
	for ( int kind = 0; kind < KIND_COUNT; ++kind )
	{
		for ( int d = 0; d < 2; ++d )
		{
			float dir = d == 0 ? 1.0f : -1.0f;
			scene* s = scene_create( 1.0f );
			scene_add_tile_row( s, -16, -1, 10 ); // top at 0 up to x = -6
			scene_add_tile_row( s, 6, -1, 10 );   // from x = 6
			float half_height = character_half_height( kind );
			kcc_controller_def def = character_def( kind, kcc_v2( -dir * 10.0f, half_height + 0.01f ) );
			kcc_controller* c = scene_create_controller( s, &def );
			assert_non_null( c );
			extras e = { .space = s->space };
			vec2s points[16];
			const int arc = 14;
			float center_y = -sqrtf( 400.0f - 36.0f );
			float half_angle = asinf( 6.0f / 20.0f );
			points[0] = kcc_v2( -6.0f, -1.0f );
			points[1] = kcc_v2( 6.0f, -1.0f );
			for ( int i = 0; i < arc; ++i )
			{
				float a = -half_angle + 2.0f * half_angle * (float)i / (float)( arc - 1 ); // from the right end
				points[2 + i] = kcc_v2( 20.0f * sinf( -a ), center_y + 20.0f * cosf( a ) );
			}
			points[2] = kcc_v2( 6.0f, 0.0f );
			points[2 + arc - 1] = kcc_v2( -6.0f, 0.0f );
			cpShape* hill = extras_add_big_polygon( &e, points, 16, false );
			const char* name = character_name( kind );
			vec2s velocity = kcc_v2( 0.0f, 0.0f );
			float highest = -FLT_MAX;
			bool on_hill = false;
			for ( int move = 0; move < 240; ++move )
			{
				kcc_move_result result;
				assert_int_equal( test_gravity_step( c, &velocity, dir * 6.0f, GRAVITY, DT, &result ), KCC_OK );
				SCENE_CHECK( result.flags & KCC_ON_FLOOR, "%s dir %+d move %d at (%.5f, %.5f): left the floor", name,
							 (int)dir, move, (double)result.position.x, (double)result.position.y );
				SCENE_CHECK( ( result.flags & KCC_ON_WALL ) == 0, "%s dir %+d move %d at x %.5f: wall contact", name,
							 (int)dir, move, (double)result.position.x );
				on_hill = on_hill || result.floor_shape == hill;
				float depth = fmaxf( scene_overlap( s, &def.shape, result.position ),
									 chipmunk_depth( s, &def.shape, result.position, hill ) );
				SCENE_CHECK( depth <= 1e-3f * 2.0f * half_height, "%s move %d: overlap %g", name, move, (double)depth );
				float gap = big_polygon_distance( &e, 0, &def.shape, result.position );
				if ( result.floor_shape == hill )
				{
					// Keeps the skin from the hill (its steepest part is 17.5 degrees).
					SCENE_CHECK( gap >= 0.0f && gap <= def.skin / cosf( 17.5f * DEG ) + 1e-4f,
								 "%s dir %+d move %d: gap to the hill %g", name, (int)dir, move, (double)gap );
				}
				highest = result.position.y > highest ? result.position.y : highest;
			}
			vec2s p = kcc_controller_get_position( c );
			SCENE_CHECK( p.x * dir > 8.0f, "%s dir %+d: did not cross the hill (x %.4f)", name, (int)dir, (double)p.x );
			SCENE_CHECK( on_hill && highest >= 20.0f + center_y + half_height, "%s dir %+d: never on top of the hill "
						 "(highest %.4f)", name, (int)dir, (double)highest );
			kcc_controller_destroy( c );
			extras_destroy( &e );
			scene_destroy( s );
		}
	}
}

// A 16-gon boulder (radius 1.5): pushing head-on into each of its 16 faces (FLOATING) stops at the skin's gap,
// never inside (the faces are spread over every fan piece); walking into it on the floor
// (GROUNDED) is blocked with KCC_ON_WALL.
static void test_level_polygon_with_many_vertices_blocks( void** state )
{
	(void)state;
	for ( int kind = 0; kind < KIND_COUNT; ++kind )
	{
		const char* name = character_name( kind );
		float half_height = character_half_height( kind );
		{
			scene* s = scene_create( 1.0f );
			kcc_controller_def def = character_def( kind, kcc_v2( 0.0f, 0.0f ) );
			def.mode = KCC_MODE_FLOATING;
			kcc_controller* c = scene_create_controller( s, &def );
			assert_non_null( c );
			extras e = { .space = s->space };
			vec2s points[16];
			regular_polygon( points, 16, kcc_v2( 0.0f, 0.0f ), 1.5f, 0.05f );
			cpShape* boulder = extras_add_big_polygon( &e, points, 16, false );
			for ( int k = 0; k < 16; ++k )
			{
				float a = 0.05f + 2.0f * SCENE_PI * ( (float)k + 0.5f ) / 16.0f; // face k's normal
				vec2s out = kcc_v2( cosf( a ), sinf( a ) );
				assert_int_equal( kcc_controller_set_position( c, kcc_v2( 4.0f * out.x, 4.0f * out.y ) ), KCC_OK );
				kcc_move_result result;
				for ( int push = 0; push < 8; ++push )
				{
					assert_int_equal( kcc_controller_move( c, kcc_v2( -0.5f * out.x, -0.5f * out.y ), &result ), KCC_OK );
					float depth = chipmunk_depth( s, &def.shape, result.position, boulder );
					SCENE_CHECK( depth <= 1e-3f * 2.0f * half_height, "%s from %d: overlap %g", name, k, (double)depth );
				}
				float gap = big_polygon_distance( &e, 0, &def.shape, result.position );
				SCENE_CHECK( gap >= 0.0f && gap <= def.skin + 1e-4f, "%s from direction %d: gap %g after pushing", name,
							 k, (double)gap );
				SCENE_CHECK( result.flags & KCC_ON_WALL, "%s from %d: no wall contact", name, k );
				SCENE_CHECK( result.collision_count >= 1 && result.collisions[0].shape == boulder,
							 "%s from %d: no collision with the boulder reported", name, k );
			}
			kcc_controller_destroy( c );
			extras_destroy( &e );
			scene_destroy( s );
		}
		{
			scene* s = scene_create( 1.0f );
			scene_add_tile_row( s, -10, -1, 20 );
			kcc_controller_def def = character_def( kind, kcc_v2( -5.0f, half_height + 0.01f ) );
			kcc_controller* c = scene_create_controller( s, &def );
			assert_non_null( c );
			extras e = { .space = s->space };
			vec2s points[12];
			regular_polygon( points, 12, kcc_v2( 0.0f, 1.0f ), 1.5f, 0.0f ); // a flat face toward the character
			cpShape* boulder = extras_add_big_polygon( &e, points, 12, false );
			vec2s velocity = kcc_v2( 0.0f, 0.0f );
			kcc_move_result result;
			float x_before = 0.0f;
			for ( int move = 0; move < 90; ++move )
			{
				if ( move == 70 )
				{
					x_before = kcc_controller_get_position( c ).x;
				}
				assert_int_equal( test_gravity_step( c, &velocity, 6.0f, GRAVITY, DT, &result ), KCC_OK );
				float depth = fmaxf( scene_overlap( s, &def.shape, result.position ),
									 chipmunk_depth( s, &def.shape, result.position, boulder ) );
				SCENE_CHECK( depth <= 1e-3f * 2.0f * half_height, "%s move %d: overlap %g", name, move, (double)depth );
			}
			SCENE_CHECK( result.flags & KCC_ON_WALL, "%s: walking into the boulder, no wall contact", name );
			SCENE_CHECK( result.flags & KCC_ON_FLOOR, "%s: walking into the boulder, left the floor", name );
			SCENE_CHECK( fabsf( result.position.x - x_before ) <= 1e-5f, "%s: still moving (%g)", name,
						 (double)( result.position.x - x_before ) );
			float gap = big_polygon_distance( &e, 0, &def.shape, result.position );
			SCENE_CHECK( gap >= 0.0f && gap <= def.skin + 1e-4f, "%s: gap %g to the boulder", name, (double)gap );
			kcc_controller_destroy( c );
			extras_destroy( &e );
			scene_destroy( s );
		}
	}
}

// Chipmunk accepts polygons the core's validity rules refuse: a box of zero height (cpBoxShapeNew2, two pairs of
// equal vertices) and a raw polygon with a collinear vertex on its top edge. Both are level geometry like any other:
// the character lands on them, rests at the skin's gap, walks across (the zero-height box is a thin platform). So is
// a top with a corner turning by only 0.11 degrees (valid, but too flat for the controller's quick test).
static void test_degenerate_chipmunk_polygons_hold( void** state )
{
	(void)state;
	for ( int kind = 0; kind < KIND_COUNT; ++kind )
	{
		for ( int variant = 0; variant < 3; ++variant )
		{
			scene* s = scene_create( 1.0f );
			float half_height = character_half_height( kind );
			// A multiple of the 0.125 steps from the peak: a flat bottom's corner lands exactly on the peak's vertex,
			// a vertex-to-vertex contact (the shape cast reports the target's face there, so the floor stays found).
			kcc_controller_def def = character_def( kind, kcc_v2( -3.0f, half_height + 1.0f ) );
			float peak = variant == 2 ? 0.005f : 0.0f; // the top's height at x = 0
			kcc_controller* c = scene_create_controller( s, &def );
			assert_non_null( c );
			extras e = { .space = s->space };
			cpShape* platform;
			if ( variant == 0 )
			{
				platform = extras_add_box( &e, -5.0f, 0.0f, 5.0f, 0.0f, false );
			}
			else
			{
				cpVect verts[5] = { cpv( -5.0, -1.0 ), cpv( 5.0, -1.0 ), cpv( 5.0, 0.0 ), cpv( 0.0, peak ), cpv( -5.0, 0.0 ) };
				platform = extras_add( &e, cpPolyShapeNewRaw( cpSpaceGetStaticBody( s->space ), 5, verts, 0.0 ), false );
			}
			const char* name = character_name( kind );
			const char* what = variant == 0 ? "zero-height box" : variant == 1 ? "collinear vertex" : "nearly flat corner";
			vec2s velocity = kcc_v2( 0.0f, 0.0f );
			kcc_move_result result;
			for ( int move = 0; move < 60; ++move )
			{
				assert_int_equal( test_gravity_step( c, &velocity, 0.0f, GRAVITY, DT, &result ), KCC_OK );
			}
			SCENE_CHECK( ( result.flags & KCC_ON_FLOOR ) && result.floor_shape == platform, "%s on a %s: not standing "
						 "on it (flags 0x%x, y %.5f)", name, what, (unsigned)result.flags, (double)result.position.y );
			for ( int move = 0; move < 48; ++move )
			{
				assert_int_equal( test_gravity_step( c, &velocity, 7.5f, GRAVITY, 1.0f / 60.0f, &result ), KCC_OK );
				SCENE_CHECK( result.flags & KCC_ON_FLOOR, "%s on a %s move %d at x %.4f: left the floor", name, what,
							 move, (double)result.position.x );
				SCENE_CHECK( ( result.flags & KCC_ON_WALL ) == 0, "%s on a %s move %d at x %.4f: wall contact", name,
							 what, move, (double)result.position.x );
				// On the nearly flat top, the skin's gap from the top under the character (its bottom is flat or
				// round: it rests within the skin of the top's highest point below it, 0 to peak).
				float top = peak * ( 1.0f - fminf( fabsf( result.position.x ) / 5.0f, 1.0f ) );
				SCENE_CHECK( fabsf( result.position.y - ( half_height + def.skin + top ) ) <= 1e-4f + peak,
							 "%s on a %s move %d: at y %.6f, the top is at %g", name, what, move,
							 (double)result.position.y, (double)top );
			}
			SCENE_CHECK( result.position.x >= 2.9f, "%s on a %s: only reached x %.4f", name, what,
						 (double)result.position.x );
			kcc_controller_destroy( c );
			extras_destroy( &e );
			scene_destroy( s );
		}
	}
}

// ---------------------------------------------------------------------------------------------------------------
// The hexagon character on tiles: lands, walks 30 tiles covering exactly the commanded distance with no wall
// contact, and is stopped by a tiled wall at the skin's gap.
static void test_hexagon_character_on_tiles( void** state )
{
	(void)state;
	for ( int d = 0; d < 2; ++d )
	{
		float dir = d == 0 ? 1.0f : -1.0f;
		scene* s = scene_create( dir );
		scene_add_tile_row( s, -5, -1, 45 );    // top at 0
		scene_add_tile_column( s, 35, 0, 5 );   // wall face at x = 35
		float half_height = character_half_height( HEXAGON_KIND );
		kcc_controller_def def = character_def( HEXAGON_KIND, kcc_v2( 0.0f, half_height + 0.5f ) );
		kcc_controller* c = scene_create_controller( s, &def );
		assert_non_null( c );
		kcc_move_result result;
		for ( int move = 0; move < 60; ++move )
		{
			assert_int_equal( kcc_controller_move( c, kcc_v2( 0.0f, -0.125f ), &result ), KCC_OK );
		}
		SCENE_CHECK( result.flags & KCC_ON_FLOOR, "hexagon: did not land" );
		SCENE_CHECK( fabsf( result.position.y - ( half_height + def.skin ) ) <= 1e-4f, "hexagon: rests at y %.6f",
					 (double)result.position.y );
		SCENE_CHECK( fabsf( result.floor_normal.x ) <= 1e-6f && result.floor_normal.y >= 1.0f - 1e-6f,
					 "hexagon: floor normal (%g, %g)", (double)result.floor_normal.x, (double)result.floor_normal.y );
		vec2s start = result.position;
		for ( int move = 0; move < 240; ++move )
		{
			assert_int_equal( kcc_controller_move( c, kcc_v2( dir * 0.125f, 0.0f ), &result ), KCC_OK );
			SCENE_CHECK( result.flags & KCC_ON_FLOOR, "hexagon dir %+d move %d: left the floor", (int)dir, move );
			SCENE_CHECK( ( result.flags & KCC_ON_WALL ) == 0, "hexagon dir %+d move %d at x %.4f: wall contact on a "
						 "seam", (int)dir, move, (double)result.position.x );
			float depth = scene_overlap( s, &def.shape, result.position );
			SCENE_CHECK( depth <= 1e-3f * 2.0f * half_height, "hexagon: overlap %g", (double)depth );
		}
		SCENE_CHECK( result.position.x == start.x + dir * 30.0f && result.position.y == start.y,
					 "hexagon dir %+d: walked to (%.7g, %.7g) from (%.7g, %.7g)", (int)dir, (double)result.position.x,
					 (double)result.position.y, (double)start.x, (double)start.y );
		for ( int move = 0; move < 60; ++move )
		{
			assert_int_equal( kcc_controller_move( c, kcc_v2( dir * 0.125f, 0.0f ), &result ), KCC_OK );
			float depth = scene_overlap( s, &def.shape, result.position );
			SCENE_CHECK( depth <= 1e-3f * 2.0f * half_height, "hexagon: overlap %g", (double)depth );
		}
		float wall_x = 35.0f - character_half_width( HEXAGON_KIND ) - def.skin;
		SCENE_CHECK( fabsf( result.position.x * dir - wall_x ) <= 1e-4f, "hexagon dir %+d: stopped at x %.6f, wall "
					 "contact at %.6f", (int)dir, (double)result.position.x, (double)wall_x );
		SCENE_CHECK( ( result.flags & ( KCC_ON_WALL | KCC_ON_FLOOR ) ) == ( KCC_ON_WALL | KCC_ON_FLOOR ),
					 "hexagon: flags 0x%x against the wall", (unsigned)result.flags );
		kcc_controller_destroy( c );
		scene_destroy( s );
	}
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_sensor_reported_when_overlapping_and_never_blocks ),
		cmocka_unit_test( test_sensor_crossed_but_not_overlapping_is_not_reported ),
		cmocka_unit_test( test_more_sensors_than_reported ),
		cmocka_unit_test( test_sensor_polygon_with_many_vertices ),
		cmocka_unit_test( test_level_polygon_with_many_vertices_holds ),
		cmocka_unit_test( test_level_polygon_with_many_vertices_blocks ),
		cmocka_unit_test( test_degenerate_chipmunk_polygons_hold ),
		cmocka_unit_test( test_hexagon_character_on_tiles ),
	};
	return cmocka_run_group_tests_name( "controller_scenarios_features_sensors", tests, NULL, NULL );
}
