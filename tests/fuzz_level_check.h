// SPDX-License-Identifier: MIT
// What every level fuzz target checks (fuzz_level.c: Tiled JSON; fuzz_level_tmx.c: Tiled XML; fuzz_level_ldtk.c:
// LDtk): the map loads into a space that already holds a shape and a body of the game's, and abort() when the
// contract breaks: an error without a message naming the file, a space changed by a failed load, a level whose
// shapes or bodies are not all in the space, non-finite geometry, platforms leaving finite positions, a character
// spawned in the level ending a few moves with a non-finite position, or a destroy that does not give the space
// back. Every function is static: each target includes this once.
#pragma once

#include "kcc/testkit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void count_shape( cpShape* shape, void* data )
{
	cpBB bb = cpShapeGetBB( shape );
	if ( !isfinite( bb.l ) || !isfinite( bb.b ) || !isfinite( bb.r ) || !isfinite( bb.t ) )
	{
		fprintf( stderr, "fuzz_level: a shape with a non-finite box\n" );
		abort();
	}
	*(int*)data += 1;
}

static void count_body( cpBody* body, void* data )
{
	(void)body;
	*(int*)data += 1;
}

static void space_counts( cpSpace* space, int* shapes, int* bodies )
{
	*shapes = 0;
	*bodies = 0;
	cpSpaceEachShape( space, count_shape, shapes );
	cpSpaceEachBody( space, count_body, bodies );
}

static void check( bool condition, const char* what, const char* message )
{
	if ( condition == false )
	{
		fprintf( stderr, "fuzz_level: %s (message: %s)\n", what, message );
		abort();
	}
}

// Spawns a character at each spawn (at most 3) and moves it a little: it must stay finite.
static void exercise( cpSpace* space, kcc_level* level )
{
	int spawned = 0;
	for ( int i = 0; i < kcc_level_object_count( level ) && spawned < 3; ++i )
	{
		const kcc_level_object* o = kcc_level_get_object( level, i );
		if ( o->kind != KCC_LEVEL_SPAWN || fabsf( o->position.x ) > 1.0e5f || fabsf( o->position.y ) > 1.0e5f )
		{
			continue;
		}
		spawned += 1;
		kcc_character_def def = kcc_default_character_def();
		def.controller.one_way_categories = ( cpBitmask )1 << 1;
		kcc_character* c = kcc_character_create( space, &def, o->position );
		check( c != NULL, "a character could not be created at a spawn", "" );
		kcc_input input = { { { 1.0f, 0.0f } }, true, false, false };
		for ( int k = 0; k < 8; ++k )
		{
			input.crouch = k % 4 >= 2;
			kcc_level_step( level, 1.0f / 60.0f );
			kcc_move_result result;
			check( kcc_character_step( c, input, 1.0f / 60.0f, &result ) == KCC_OK, "a step failed", "" );
			check( kcc_is_valid_vec2( result.position ), "a non-finite character position", "" );
			input.move.x = -input.move.x;
		}
		kcc_character_destroy( c );
	}
	for ( int i = 0; i < kcc_level_platform_count( level ); ++i )
	{
		cpVect p = cpBodyGetPosition( kcc_level_get_platform( level, i )->body );
		check( isfinite( p.x ) && isfinite( p.y ), "a platform left finite positions", "" );
	}
}

// Loads text named name (a name starting "fuzz/") with def and checks everything above.
static void fuzz_load_and_check( const char* text, size_t size, const char* name, const kcc_level_def* def )
{
	cpSpace* space = cpSpaceNew();
	cpShape* own = cpSpaceAddShape( space, cpCircleShapeNew( cpSpaceGetStaticBody( space ), 1.0, cpvzero ) );
	cpBody* own_body = cpSpaceAddBody( space, cpBodyNewKinematic() );
	int shapes0, bodies0;
	space_counts( space, &shapes0, &bodies0 );

	kcc_level* level = NULL;
	kcc_level_error error;
	kcc_level_status status = kcc_level_load_memory( space, text, size, name, def, &level, &error );
	int shapes, bodies;
	space_counts( space, &shapes, &bodies );
	if ( status != KCC_LEVEL_OK )
	{
		check( level == NULL, "an error returned a level", error.message );
		check( error.status == status, "the error's status differs from the returned one", error.message );
		check( strncmp( error.message, "fuzz/", 5 ) == 0, "an error message that does not name the file", error.message );
		check( shapes == shapes0 && bodies == bodies0, "a failed load changed the space", error.message );
	}
	else
	{
		check( level != NULL && error.status == KCC_LEVEL_OK, "success without a level", error.message );
		kcc_level_info info = kcc_level_get_info( level );
		check( shapes == shapes0 + info.shape_count, "the level's shapes are not all in the space", "" );
		check( bodies == bodies0 + info.body_count, "the level's bodies are not all in the space", "" );
		for ( int i = 0; i < kcc_level_object_count( level ); ++i )
		{
			const kcc_level_object* o = kcc_level_get_object( level, i );
			check( kcc_is_valid_vec2( o->position ) && kcc_is_valid_vec2( o->bounds.min ) &&
					   kcc_is_valid_vec2( o->bounds.max ),
				   "an object with non-finite bounds", o->name );
			for ( int k = 0; k < o->shape_count; ++k )
			{
				check( kcc_level_object_of_shape( level, o->shapes[k] ) == o, "a shape not mapped to its object", o->name );
			}
		}
		exercise( space, level );
		kcc_level_reset( level );
		kcc_level_destroy( level );
		space_counts( space, &shapes, &bodies );
		check( shapes == shapes0 && bodies == bodies0, "destroy did not give the space back", "" );
	}
	cpSpaceRemoveShape( space, own );
	cpSpaceRemoveBody( space, own_body );
	cpShapeFree( own );
	cpBodyFree( own_body );
	cpSpaceFree( space );
}
