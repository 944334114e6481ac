// SPDX-License-Identifier: MIT
// Helpers for the level and test kit tests: paths of the test maps in tests/levels, loading with a check, what the
// space holds (counts, the shapes at a point, found through Chipmunk's own queries, independent of the level's
// records), and box comparisons. Every helper is static inline.
#pragma once

#include "kcc/testkit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef KCC_TEST_LEVELS
#error "KCC_TEST_LEVELS must name the tests/levels directory"
#endif

#define LEVEL_MAX_HITS 32

/// tests/levels/<name> (a static buffer: use it before the next call).
static inline const char* level_path( const char* name )
{
	static char path[1024];
	snprintf( path, sizeof( path ), "%s/%s", KCC_TEST_LEVELS, name );
	return path;
}

/// Loads a test map into space; fails the test with the loader's message on an error.
static inline kcc_level* level_load( cpSpace* space, const char* name, const kcc_level_def* def )
{
	kcc_level* level = NULL;
	kcc_level_error error;
	kcc_level_status status = kcc_level_load_file( space, level_path( name ), def, &level, &error );
	if ( status != KCC_LEVEL_OK )
	{
		fprintf( stderr, "loading %s failed: %s\n", name, error.message );
	}
	assert_int_equal( status, KCC_LEVEL_OK );
	assert_non_null( level );
	return level;
}

static inline void level_count_shape( cpShape* shape, void* data )
{
	(void)shape;
	*(int*)data += 1;
}

static inline void level_count_body( cpBody* body, void* data )
{
	(void)body;
	*(int*)data += 1;
}

/// Shapes in the space (the static body's included).
static inline int space_shape_count( cpSpace* space )
{
	int n = 0;
	cpSpaceEachShape( space, level_count_shape, &n );
	return n;
}

/// Non-static bodies in the space.
static inline int space_body_count( cpSpace* space )
{
	int n = 0;
	cpSpaceEachBody( space, level_count_body, &n );
	return n;
}

typedef struct level_hits
{
	cpVect point;
	int count;
	cpShape* shapes[LEVEL_MAX_HITS];
} level_hits;

static inline void level_hit_callback( cpShape* shape, void* data )
{
	level_hits* hits = data;
	cpPointQueryInfo info;
	// Inside or on the boundary, within rounding.
	if ( cpShapePointQuery( shape, hits->point, &info ) <= 1e-9 && hits->count < LEVEL_MAX_HITS )
	{
		hits->shapes[hits->count++] = shape;
	}
}

/// The shapes of the space containing p (sensors included), through Chipmunk's bounding box query and its exact
/// per-shape point query.
static inline level_hits space_shapes_at( cpSpace* space, double x, double y )
{
	level_hits hits;
	memset( &hits, 0, sizeof( hits ) );
	hits.point = cpv( x, y );
	cpSpaceBBQuery( space, cpBBNew( x - 1e-6, y - 1e-6, x + 1e-6, y + 1e-6 ), CP_SHAPE_FILTER_ALL, level_hit_callback,
					&hits );
	return hits;
}

/// The one shape at p (fails the test when there is none or more than one).
static inline cpShape* space_shape_at( cpSpace* space, double x, double y )
{
	level_hits hits = space_shapes_at( space, x, y );
	if ( hits.count != 1 )
	{
		fprintf( stderr, "expected one shape at (%g, %g), found %d\n", x, y, hits.count );
	}
	assert_int_equal( hits.count, 1 );
	return hits.shapes[0];
}

/// Asserts a shape's bounding box (Chipmunk's, of the shape where it is now).
static inline void assert_shape_box( cpShape* shape, double l, double b, double r, double t, double tolerance )
{
	cpBB bb = cpShapeGetBB( shape );
	if ( fabs( bb.l - l ) > tolerance || fabs( bb.b - b ) > tolerance || fabs( bb.r - r ) > tolerance ||
		 fabs( bb.t - t ) > tolerance )
	{
		fprintf( stderr, "box [%g, %g] x [%g, %g], expected [%g, %g] x [%g, %g]\n", bb.l, bb.r, bb.b, bb.t, l, r, b, t );
	}
	assert_true( fabs( bb.l - l ) <= tolerance && fabs( bb.b - b ) <= tolerance );
	assert_true( fabs( bb.r - r ) <= tolerance && fabs( bb.t - t ) <= tolerance );
}

/// A test kit on a test map at a spawn (NULL: the first), with the default character; fails the test with the
/// test kit's message when it cannot be made.
static inline kcc_testkit* testkit_open( const char* map, const char* spawn )
{
	kcc_testkit_error error;
	kcc_testkit* t = kcc_testkit_create_from_file( level_path( map ), spawn, NULL, &error );
	if ( t == NULL )
	{
		fprintf( stderr, "%s\n", error.message );
	}
	assert_non_null( t );
	return t;
}

/// Runs a script, failing the test with its message on an error.
static inline void testkit_script( kcc_testkit* t, const char* script )
{
	kcc_testkit_error error;
	bool ok = kcc_testkit_run_script( t, script, "test script", &error );
	if ( ok == false )
	{
		fprintf( stderr, "%s\n", error.message );
	}
	assert_true( ok );
}

/// The text of a whole test map (freed by the caller).
static inline char* level_read_text( const char* name, size_t* size )
{
	FILE* f = fopen( level_path( name ), "rb" );
	assert_non_null( f );
	fseek( f, 0, SEEK_END );
	long n = ftell( f );
	fseek( f, 0, SEEK_SET );
	char* text = malloc( (size_t)n + 1 );
	assert_non_null( text );
	assert_int_equal( fread( text, 1, (size_t)n, f ), (size_t)n );
	fclose( f );
	text[n] = '\0';
	*size = (size_t)n;
	return text;
}
