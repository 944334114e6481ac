// SPDX-License-Identifier: MIT
// The character model shared by the test kit and kcc_run: a velocity from the input each frame (walk speed,
// gravity, a jump from the floor), moved by kcc_controller_move_and_slide, which hands back the velocity with the
// blocked parts removed (landing stops the fall, a ceiling stops the jump). Crouching swaps the controller's shape.
#include "kcc/testkit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define KCC_CHARACTER_COOKIE 0xc4a7

struct kcc_character
{
	kcc_character_def def;
	kcc_controller* controller; // owned
	vec2s velocity;
	bool crouching;
};

kcc_character_def kcc_default_character_def( void )
{
	kcc_character_def def;
	memset( &def, 0, sizeof( def ) );
	def.controller = kcc_default_controller_def();
	def.controller.step_height = 0.3f;
	def.controller.snap_distance = 0.2f;
	def.mode = KCC_CHARACTER_PLATFORMER;
	def.gravity = 30.0f;
	def.walk_speed = 6.0f;
	def.jump_speed = 13.0f;
	def.crouch_shape = kcc_make_circle( kcc_v2( 0.0f, -0.3f ), 0.3f );
	def.crouch_speed = 3.0f;
	def.internal_cookie = KCC_CHARACTER_COOKIE;
	return def;
}

static bool kcc_character_def_ok( const kcc_character_def* def )
{
	bool finite = kcc_is_valid_float( def->gravity ) && kcc_is_valid_float( def->walk_speed ) &&
				  kcc_is_valid_float( def->jump_speed ) && kcc_is_valid_float( def->crouch_speed );
	return def->internal_cookie == KCC_CHARACTER_COOKIE && finite && def->walk_speed >= 0.0f &&
		   def->jump_speed >= 0.0f && def->crouch_speed >= 0.0f && kcc_shape_is_valid( &def->crouch_shape ) &&
		   ( def->mode == KCC_CHARACTER_PLATFORMER || def->mode == KCC_CHARACTER_TOP_DOWN );
}

kcc_character* kcc_character_create( cpSpace* space, const kcc_character_def* def, vec2s position )
{
	if ( space == NULL || def == NULL || kcc_character_def_ok( def ) == false )
	{
		return NULL;
	}
	kcc_character* ch = malloc( sizeof( kcc_character ) );
	if ( ch == NULL )
	{
		return NULL;
	}
	memset( ch, 0, sizeof( *ch ) );
	ch->def = *def;
	kcc_controller_def cdef = def->controller;
	cdef.mode = def->mode == KCC_CHARACTER_TOP_DOWN ? KCC_MODE_FLOATING : KCC_MODE_GROUNDED;
	cdef.position = position;
	// A refused def is the caller's to report (kcc_controller_def_problem): return NULL before the controller's
	// debug assert.
	ch->controller = kcc_controller_def_problem( &cdef ) == NULL ? kcc_controller_create( space, &cdef ) : NULL;
	if ( ch->controller == NULL )
	{
		free( ch );
		return NULL;
	}
	ch->def.controller = cdef;
	return ch;
}

void kcc_character_destroy( kcc_character* character )
{
	if ( character == NULL )
	{
		return;
	}
	kcc_controller_destroy( character->controller );
	free( character );
}

static float kcc_clamp1( float x )
{
	return x < -1.0f ? -1.0f : x > 1.0f ? 1.0f : x;
}

kcc_status kcc_character_step( kcc_character* character, kcc_input input, float dt, kcc_move_result* out )
{
	if ( character == NULL )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	if ( kcc_is_valid_vec2( input.move ) == false || kcc_is_valid_float( dt ) == false )
	{
		return KCC_ERROR_NOT_FINITE;
	}
	if ( !( dt > 0.0f ) )
	{
		return KCC_ERROR_INVALID_ARGUMENT;
	}
	const kcc_character_def* def = &character->def;
	if ( input.crouch != character->crouching )
	{
		// Standing up is refused (KCC_ERROR_BLOCKED) under a low ceiling: it stays crouched and tries again.
		const kcc_shape* shape = input.crouch ? &def->crouch_shape : &def->controller.shape;
		if ( kcc_controller_set_shape( character->controller, shape ) == KCC_OK )
		{
			character->crouching = input.crouch;
		}
	}
	float speed = character->crouching ? def->crouch_speed : def->walk_speed;
	vec2s v = character->velocity;
	if ( def->mode == KCC_CHARACTER_TOP_DOWN )
	{
		vec2s move = kcc_v2( kcc_clamp1( input.move.x ), kcc_clamp1( input.move.y ) );
		float length = sqrtf( move.x * move.x + move.y * move.y );
		float scale = length > 1.0f ? speed / length : speed;
		v = kcc_v2( move.x * scale, move.y * scale );
	}
	else
	{
		v.x = kcc_clamp1( input.move.x ) * speed;
		if ( input.jump && kcc_controller_is_on_floor( character->controller ) )
		{
			v.y = def->jump_speed;
		}
		else
		{
			v.y -= def->gravity * dt;
		}
		if ( input.drop )
		{
			kcc_controller_drop_through( character->controller );
		}
	}
	vec2s after = v;
	kcc_status status = kcc_controller_move_and_slide( character->controller, v, dt, &after, out );
	if ( status == KCC_OK )
	{
		character->velocity = after;
	}
	return status;
}

vec2s kcc_character_get_velocity( const kcc_character* character )
{
	return character != NULL ? character->velocity : kcc_v2( 0.0f, 0.0f );
}

bool kcc_character_is_crouching( const kcc_character* character )
{
	return character != NULL && character->crouching;
}

kcc_status kcc_character_set_position( kcc_character* character, vec2s position )
{
	if ( character == NULL )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	kcc_status status = kcc_controller_set_position( character->controller, position );
	if ( status == KCC_OK )
	{
		character->velocity = kcc_v2( 0.0f, 0.0f );
	}
	return status;
}

kcc_controller* kcc_character_get_controller( const kcc_character* character )
{
	return character != NULL ? character->controller : NULL;
}

const kcc_character_def* kcc_character_get_def( const kcc_character* character )
{
	return character != NULL ? &character->def : NULL;
}
