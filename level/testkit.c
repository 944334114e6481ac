// SPDX-License-Identifier: MIT
// The test kit: its own space with the level and one character, stepped in DESIGN.md's frame order (platforms,
// then the character), with every frame and event recorded for the test to ask about afterwards.
#define _POSIX_C_SOURCE 200809L // dup, dup2 and fileno under -std=c11
#include "script.h"

#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define KCC_TESTKIT_COOKIE 0x7e57

struct kcc_testkit
{
	cpSpace* space;            // owned
	kcc_level* level;          // owned
	kcc_character* character;  // owned
	kcc_character_def character_def;
	float dt;
	char spawn[128];           // the spawn the character starts from ("" = the first spawn)
	uint32_t flags;
	uint32_t flags_seen;
	const char* floor_name;                 // NULL in the air
	const kcc_level_object* floor_object;   // NULL in the air or on tiles
	const kcc_level_object* platform;       // the moving platform it stands on
	int* zone_count;                        // per level object: its shapes the character overlaps
	int* zone_now;                          // scratch of the same size
	kcc_testkit_frame* frames;
	int frame_count, frame_capacity;
	kcc_testkit_event* events;
	int event_count, event_capacity;
};

kcc_testkit_def kcc_default_testkit_def( void )
{
	kcc_testkit_def def;
	memset( &def, 0, sizeof( def ) );
	def.level = kcc_default_level_def();
	def.character = kcc_default_character_def();
	def.dt = 1.0f / 60.0f;
	def.internal_cookie = KCC_TESTKIT_COOKIE;
	return def;
}

// Debian's Chipmunk (a debug build) prints a two-line banner to stdout at the process's first cpSpaceNew: that one
// goes to stderr, so that a test's or kcc_run's stdout holds only its own output (kcc_run --csv - starts with its
// header). Later spaces print nothing and are made directly.
static cpSpace* kcc_testkit_space_new( void )
{
	static atomic_flag s_banner_redirected = ATOMIC_FLAG_INIT;
	if ( atomic_flag_test_and_set( &s_banner_redirected ) )
	{
		return cpSpaceNew();
	}
	fflush( stdout );
	int saved = dup( fileno( stdout ) );
	if ( saved >= 0 && dup2( fileno( stderr ), fileno( stdout ) ) < 0 )
	{
		close( saved );
		saved = -1;
	}
	cpSpace* space = cpSpaceNew();
	fflush( stdout );
	if ( saved >= 0 )
	{
		dup2( saved, fileno( stdout ) );
		close( saved );
	}
	return space;
}

static void kcc_testkit_fail( kcc_testkit_error* error, kcc_level_status status, const char* format, ... )
#if defined( __GNUC__ )
	__attribute__( ( format( printf, 3, 4 ) ) )
#endif
	;

static void kcc_testkit_fail( kcc_testkit_error* error, kcc_level_status status, const char* format, ... )
{
	if ( error != NULL )
	{
		error->status = status;
		va_list args;
		va_start( args, format );
		vsnprintf( error->message, sizeof( error->message ), format, args );
		va_end( args );
	}
}

// The spawn of that name (NULL: the first spawn): an object of class spawn, as the docs and the errors say.
static const kcc_level_object* kcc_find_spawn( const kcc_testkit* t, const char* name )
{
	return kcc_level_find( t->level, KCC_LEVEL_SPAWN, name );
}

// Platformer: the character's lowest point on the spawn's bottom (a point spawn: on the point), one skin above.
// Top-down: its centre on the spawn.
static vec2s kcc_spawn_position( const kcc_testkit* t, const kcc_level_object* spawn )
{
	if ( t->character_def.mode == KCC_CHARACTER_TOP_DOWN )
	{
		return spawn->position;
	}
	kcc_aabb b = kcc_shape_bounds( &t->character_def.controller.shape );
	return kcc_v2( spawn->position.x, spawn->bounds.min.y - b.min.y + t->character_def.controller.skin );
}

static void kcc_clear_records( kcc_testkit* t )
{
	t->flags = 0;
	t->flags_seen = 0;
	t->floor_name = NULL;
	t->floor_object = NULL;
	t->platform = NULL;
	t->frame_count = 0;
	t->event_count = 0;
	memset( t->zone_count, 0, ( (size_t)kcc_level_object_count( t->level ) + 1 ) * sizeof( int ) );
}

static bool kcc_make_character( kcc_testkit* t, const kcc_level_object* spawn )
{
	kcc_character_destroy( t->character );
	t->character = kcc_character_create( t->space, &t->character_def, kcc_spawn_position( t, spawn ) );
	return t->character != NULL;
}

kcc_testkit* kcc_testkit_create( const kcc_testkit_def* def, kcc_testkit_error* error )
{
	if ( def == NULL || def->internal_cookie != KCC_TESTKIT_COOKIE || ( def->map_path == NULL && def->map_json == NULL ) ||
		 !( def->dt > 0.0f ) || kcc_is_valid_float( def->dt ) == false ||
		 ( def->spawn != NULL && strlen( def->spawn ) >= sizeof( ( (kcc_testkit*)0 )->spawn ) ) )
	{
		kcc_testkit_fail( error, KCC_LEVEL_ERROR_ARGUMENT,
						  "kcc_testkit_create: the def must come from kcc_default_testkit_def, with a map, dt > 0 and a "
						  "spawn name under 128 bytes" );
		return NULL;
	}
	const char* map_name = def->map_path != NULL ? def->map_path : def->map_name != NULL ? def->map_name : "(memory)";
	kcc_testkit* t = malloc( sizeof( kcc_testkit ) );
	if ( t == NULL )
	{
		kcc_testkit_fail( error, KCC_LEVEL_ERROR_MEMORY, "kcc_testkit_create: out of memory" );
		return NULL;
	}
	memset( t, 0, sizeof( *t ) );
	t->dt = def->dt;
	snprintf( t->spawn, sizeof( t->spawn ), "%s", def->spawn != NULL ? def->spawn : "" );
	t->space = kcc_testkit_space_new();
	// Tile maps query much faster through a spatial hash than through the default tree, and Chipmunk's tree is slow
	// to insert into (a million tiles take seconds): hash from the start, sized for the level once it is loaded.
	cpSpaceUseSpatialHash( t->space, 2.0, 1024 );
	kcc_level_status status =
		def->map_path != NULL
			? kcc_level_load_file( t->space, def->map_path, &def->level, &t->level, error )
			: kcc_level_load_memory( t->space, def->map_json, def->map_size, map_name, &def->level, &t->level, error );
	if ( status != KCC_LEVEL_OK )
	{
		kcc_testkit_destroy( t );
		return NULL;
	}
	vec2s tile = kcc_level_get_tile_size( t->level );
	int shapes = kcc_level_get_info( t->level ).shape_count;
	cpSpaceUseSpatialHash( t->space, 2.0 * (double)fmaxf( tile.x, tile.y ), shapes > 256 ? 4 * shapes : 1024 );
	// The character blocks other characters as level geometry does, and knows the level's one-way and pushable
	// categories (a character in every category would look one-way and pushable to other characters).
	t->character_def = def->character;
	kcc_controller_def* c = &t->character_def.controller;
	c->one_way_categories |= def->level.one_way_category;
	c->pushable_categories |= def->level.pushable_category;
	if ( c->filter.categories == CP_ALL_CATEGORIES )
	{
		c->filter.categories = def->level.solid_category;
	}
	int objects = kcc_level_object_count( t->level );
	t->zone_count = malloc( ( (size_t)objects + 1 ) * sizeof( int ) );
	t->zone_now = malloc( ( (size_t)objects + 1 ) * sizeof( int ) );
	const kcc_level_object* spawn = kcc_find_spawn( t, def->spawn );
	if ( t->zone_count == NULL || t->zone_now == NULL )
	{
		kcc_testkit_fail( error, KCC_LEVEL_ERROR_MEMORY, "kcc_testkit_create: out of memory" );
	}
	else if ( spawn == NULL )
	{
		kcc_testkit_fail( error, KCC_LEVEL_ERROR_INVALID, "%s: no spawn %s%s%s (an object of class spawn)", map_name,
						  def->spawn != NULL ? "named '" : "", def->spawn != NULL ? def->spawn : "object",
						  def->spawn != NULL ? "'" : "" );
	}
	else if ( kcc_make_character( t, spawn ) == false )
	{
		const char* problem = kcc_controller_def_problem( &t->character_def.controller );
		kcc_testkit_fail( error, KCC_LEVEL_ERROR_ARGUMENT, "kcc_testkit_create: the character def is refused: %s",
						  problem != NULL ? problem : "a character field is out of range" );
	}
	else
	{
		kcc_clear_records( t );
		return t;
	}
	kcc_testkit_destroy( t );
	return NULL;
}

kcc_testkit* kcc_testkit_create_from_file( const char* map_path, const char* spawn,
										   const kcc_character_def* character, kcc_testkit_error* error )
{
	kcc_testkit_def def = kcc_default_testkit_def();
	def.map_path = map_path;
	def.spawn = spawn;
	if ( character != NULL )
	{
		def.character = *character;
	}
	return kcc_testkit_create( &def, error );
}

void kcc_testkit_destroy( kcc_testkit* t )
{
	if ( t == NULL )
	{
		return;
	}
	kcc_character_destroy( t->character );
	kcc_level_destroy( t->level );
	cpSpaceFree( t->space );
	free( t->zone_count );
	free( t->zone_now );
	free( t->frames );
	free( t->events );
	free( t );
}

static bool kcc_grow( void** items, int* capacity, int needed, size_t size )
{
	if ( needed <= *capacity )
	{
		return true;
	}
	int grown = *capacity < 64 ? 64 : *capacity * 2;
	void* bigger = malloc( (size_t)grown * size );
	if ( bigger == NULL )
	{
		return false;
	}
	if ( *capacity > 0 )
	{
		memcpy( bigger, *items, (size_t)*capacity * size );
	}
	free( *items );
	*items = bigger;
	*capacity = grown;
	return true;
}

static void kcc_add_event( kcc_testkit* t, kcc_testkit_event_type type, const char* name )
{
	if ( kcc_grow( (void**)&t->events, &t->event_capacity, t->event_count + 1, sizeof( kcc_testkit_event ) ) )
	{
		// Events of a step belong to the frame it records (frame_count + 1 while it runs).
		t->events[t->event_count++] = ( kcc_testkit_event ){ t->frame_count + 1, type, name != NULL ? name : "" };
	}
}

// Zone begin / end, in path order, from the controller's sensor events (a dash through a thin zone reports both in
// one move). A zone of several shapes is one zone: it begins when the first of its shapes does and ends with the
// last. The zones overlapped at the end of the move (the sensor list) then confirm the count, so a teleport, or a
// move with more events than the result holds, never leaves a zone open or missed.
static void kcc_zone_events( kcc_testkit* t, const kcc_move_result* r )
{
	int count = kcc_level_object_count( t->level );
	const kcc_level_object* first = kcc_level_get_object( t->level, 0 );
	for ( int i = 0; i < r->sensor_event_count; ++i )
	{
		const kcc_level_object* zone = kcc_level_object_of_shape( t->level, r->sensor_events[i].shape );
		if ( zone == NULL || zone->kind != KCC_LEVEL_ZONE )
		{
			continue;
		}
		int* n = t->zone_count + ( zone - first );
		if ( r->sensor_events[i].type == KCC_SENSOR_BEGIN && ( *n )++ == 0 )
		{
			kcc_add_event( t, KCC_EVENT_ZONE_BEGIN, zone->name );
		}
		else if ( r->sensor_events[i].type == KCC_SENSOR_END && *n > 0 && --( *n ) == 0 )
		{
			kcc_add_event( t, KCC_EVENT_ZONE_END, zone->name );
		}
	}
	memset( t->zone_now, 0, ( (size_t)count + 1 ) * sizeof( int ) );
	for ( int i = 0; i < r->sensor_count; ++i )
	{
		const kcc_level_object* zone = kcc_level_object_of_shape( t->level, r->sensors[i] );
		if ( zone != NULL && zone->kind == KCC_LEVEL_ZONE )
		{
			t->zone_now[zone - first] += 1;
		}
	}
	bool complete = r->sensor_count < KCC_MAX_SENSORS; // a full list may leave some shapes out
	for ( int i = 0; i < count; ++i )
	{
		bool was = t->zone_count[i] > 0, is = t->zone_now[i] > 0;
		if ( was != is )
		{
			kcc_add_event( t, is ? KCC_EVENT_ZONE_BEGIN : KCC_EVENT_ZONE_END, first[i].name );
		}
		int counted = t->zone_count[i] > t->zone_now[i] ? t->zone_count[i] : t->zone_now[i];
		t->zone_count[i] = complete ? t->zone_now[i] : is ? counted : 0;
	}
}

kcc_status kcc_testkit_step( kcc_testkit* t, kcc_input input )
{
	if ( t == NULL )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	if ( kcc_grow( (void**)&t->frames, &t->frame_capacity, t->frame_count + 1, sizeof( kcc_testkit_frame ) ) == false )
	{
		return KCC_ERROR_INVALID_ARGUMENT;
	}
	kcc_level_step( t->level, t->dt );
	bool was_on_floor = t->floor_name != NULL;
	const char* was_floor = t->floor_name;
	kcc_move_result r;
	kcc_status status = kcc_character_step( t->character, input, t->dt, &r );
	if ( status != KCC_OK )
	{
		return status;
	}
	int first_event = t->event_count;
	if ( input.jump && was_on_floor && t->character_def.mode == KCC_CHARACTER_PLATFORMER )
	{
		kcc_add_event( t, KCC_EVENT_JUMP, was_floor );
	}
	kcc_zone_events( t, &r );
	bool on_floor = ( r.flags & KCC_ON_FLOOR ) != 0;
	t->floor_object = on_floor ? kcc_level_object_of_shape( t->level, r.floor_shape ) : NULL;
	t->floor_name = NULL;
	if ( on_floor )
	{
		const char* name = kcc_level_shape_name( t->level, r.floor_shape );
		t->floor_name = name != NULL ? name : "";
	}
	if ( on_floor && was_on_floor == false )
	{
		kcc_add_event( t, KCC_EVENT_LAND, t->floor_name );
	}
	if ( on_floor == false && was_on_floor )
	{
		kcc_add_event( t, KCC_EVENT_LEAVE_FLOOR, was_floor );
	}
	if ( t->platform != NULL && t->floor_object != t->platform )
	{
		kcc_add_event( t, KCC_EVENT_LEAVE_PLATFORM, t->platform->name );
	}
	t->platform = t->floor_object != NULL && t->floor_object->kind == KCC_LEVEL_PLATFORM ? t->floor_object : NULL;
	t->flags = r.flags;
	t->flags_seen |= r.flags;
	kcc_testkit_frame* f = t->frames + t->frame_count++;
	f->frame = t->frame_count;
	f->time = (double)t->frame_count * (double)t->dt;
	f->position = r.position;
	f->velocity = kcc_character_get_velocity( t->character );
	f->flags = r.flags;
	f->crouching = kcc_character_is_crouching( t->character );
	f->floor = t->floor_name;
	f->first_event = first_event;
	f->event_count = t->event_count - first_event;
	return KCC_OK;
}

kcc_status kcc_testkit_run( kcc_testkit* t, kcc_input input, int frames )
{
	for ( int i = 0; i < frames; ++i )
	{
		kcc_status status = kcc_testkit_step( t, input );
		if ( status != KCC_OK )
		{
			return status;
		}
		input.jump = false;
		input.drop = false;
	}
	return KCC_OK;
}

bool kcc_testkit_spawn( kcc_testkit* t, const char* spawn )
{
	const kcc_level_object* o = t != NULL ? kcc_find_spawn( t, spawn ) : NULL;
	if ( o == NULL || kcc_character_set_position( t->character, kcc_spawn_position( t, o ) ) != KCC_OK )
	{
		return false;
	}
	t->floor_name = NULL;
	t->floor_object = NULL;
	t->platform = NULL;
	return true;
}

void kcc_testkit_reset( kcc_testkit* t )
{
	if ( t == NULL )
	{
		return;
	}
	kcc_level_reset( t->level );
	kcc_testkit_spawn( t, t->spawn[0] != '\0' ? t->spawn : NULL );
	kcc_clear_records( t );
}

// Checks what can be checked before any frame runs: spawn names exist, mode only before the first frame.
static bool kcc_script_check( kcc_testkit* t, const kcc_script* s, const char* name, kcc_testkit_error* error )
{
	bool held = t->frame_count > 0;
	for ( int i = 0; i < s->count; ++i )
	{
		const kcc_script_command* c = s->commands + i;
		if ( c->op == KCC_SCRIPT_MODE && held )
		{
			return kcc_script_fail( error, name, c->line, "mode must come before the first frame" );
		}
		if ( c->op == KCC_SCRIPT_SPAWN && kcc_find_spawn( t, c->spawn ) == NULL )
		{
			return kcc_script_fail( error, name, c->line, "the level has no spawn named '%s'", c->spawn );
		}
		held = held || ( c->op == KCC_SCRIPT_HOLD && c->frames > 0 );
	}
	return true;
}

bool kcc_testkit_run_script( kcc_testkit* t, const char* script, const char* name, kcc_testkit_error* error )
{
	name = name != NULL ? name : "script";
	if ( t == NULL )
	{
		kcc_testkit_fail( error, KCC_LEVEL_ERROR_ARGUMENT, "kcc_testkit_run_script: no test kit" );
		return false;
	}
	kcc_script s;
	if ( kcc_script_parse( script, name, t->dt, &s, error ) == false )
	{
		return false;
	}
	bool ok = kcc_script_check( t, &s, name, error );
	kcc_input pressed = { { { 0.0f, 0.0f } }, false, false, false };
	for ( int i = 0; ok && i < s.count; ++i )
	{
		const kcc_script_command* c = s.commands + i;
		kcc_status status = KCC_OK;
		switch ( c->op )
		{
			case KCC_SCRIPT_MODE:
			{
				t->character_def.mode = c->mode;
				const kcc_level_object* spawn = kcc_find_spawn( t, t->spawn[0] != '\0' ? t->spawn : NULL );
				ok = spawn != NULL && kcc_make_character( t, spawn );
				break;
			}
			case KCC_SCRIPT_SPAWN:
				ok = kcc_testkit_spawn( t, c->spawn );
				break;
			case KCC_SCRIPT_JUMP:
				pressed.jump = true;
				break;
			case KCC_SCRIPT_DROP:
				pressed.drop = true;
				break;
			case KCC_SCRIPT_HOLD:
				pressed.move = c->move;
				pressed.crouch = c->crouch;
				status = kcc_testkit_run( t, pressed, c->frames );
				if ( c->frames > 0 )
				{
					pressed.jump = false;
					pressed.drop = false;
				}
				break;
		}
		if ( ok == false || status != KCC_OK )
		{
			ok = kcc_script_fail( error, name, c->line, "%s",
								  status != KCC_OK ? kcc_status_string( status ) : "the character could not be placed" );
		}
	}
	// A press at the very end still happens: one more frame with no direction held.
	if ( ok && ( pressed.jump || pressed.drop ) )
	{
		pressed.move = kcc_v2( 0.0f, 0.0f );
		pressed.crouch = false;
		ok = kcc_testkit_step( t, pressed ) == KCC_OK;
	}
	kcc_script_free( &s );
	return ok;
}

vec2s kcc_testkit_position( const kcc_testkit* t )
{
	return t != NULL ? kcc_controller_get_position( kcc_character_get_controller( t->character ) ) : kcc_v2( 0.0f, 0.0f );
}

vec2s kcc_testkit_velocity( const kcc_testkit* t )
{
	return t != NULL ? kcc_character_get_velocity( t->character ) : kcc_v2( 0.0f, 0.0f );
}

uint32_t kcc_testkit_flags( const kcc_testkit* t )
{
	return t != NULL ? t->flags : 0;
}

bool kcc_testkit_on_floor( const kcc_testkit* t )
{
	return t != NULL && t->floor_name != NULL;
}

const char* kcc_testkit_floor_name( const kcc_testkit* t )
{
	return t != NULL ? t->floor_name : NULL;
}

const kcc_level_object* kcc_testkit_floor_object( const kcc_testkit* t )
{
	return t != NULL ? t->floor_object : NULL;
}

bool kcc_testkit_in_zone( const kcc_testkit* t, const char* zone )
{
	int count = t != NULL ? kcc_level_object_count( t->level ) : 0;
	for ( int i = 0; zone != NULL && i < count; ++i )
	{
		const kcc_level_object* o = kcc_level_get_object( t->level, i );
		if ( t->zone_count[i] > 0 && strcmp( o->name, zone ) == 0 )
		{
			return true;
		}
	}
	return false;
}

uint32_t kcc_testkit_flags_seen( const kcc_testkit* t )
{
	return t != NULL ? t->flags_seen : 0;
}

int kcc_testkit_count_events( const kcc_testkit* t, kcc_testkit_event_type type, const char* name )
{
	int n = 0;
	for ( int i = 0; t != NULL && i < t->event_count; ++i )
	{
		n += t->events[i].type == type && ( name == NULL || strcmp( t->events[i].name, name ) == 0 );
	}
	return n;
}

const kcc_testkit_event* kcc_testkit_find_event( const kcc_testkit* t, kcc_testkit_event_type type, const char* name )
{
	for ( int i = 0; t != NULL && i < t->event_count; ++i )
	{
		if ( t->events[i].type == type && ( name == NULL || strcmp( t->events[i].name, name ) == 0 ) )
		{
			return t->events + i;
		}
	}
	return NULL;
}

int kcc_testkit_event_count( const kcc_testkit* t )
{
	return t != NULL ? t->event_count : 0;
}

const kcc_testkit_event* kcc_testkit_events( const kcc_testkit* t )
{
	return t != NULL ? t->events : NULL;
}

int kcc_testkit_frame_count( const kcc_testkit* t )
{
	return t != NULL ? t->frame_count : 0;
}

const kcc_testkit_frame* kcc_testkit_frames( const kcc_testkit* t )
{
	return t != NULL ? t->frames : NULL;
}

const char* kcc_testkit_event_name( kcc_testkit_event_type type )
{
	switch ( type )
	{
		case KCC_EVENT_ZONE_BEGIN:
			return "zone_begin";
		case KCC_EVENT_ZONE_END:
			return "zone_end";
		case KCC_EVENT_LAND:
			return "land";
		case KCC_EVENT_LEAVE_FLOOR:
			return "leave_floor";
		case KCC_EVENT_LEAVE_PLATFORM:
			return "leave_platform";
		case KCC_EVENT_JUMP:
			return "jump";
	}
	return "unknown";
}

kcc_level* kcc_testkit_level( const kcc_testkit* t )
{
	return t != NULL ? t->level : NULL;
}

kcc_character* kcc_testkit_character( const kcc_testkit* t )
{
	return t != NULL ? t->character : NULL;
}

cpSpace* kcc_testkit_space( const kcc_testkit* t )
{
	return t != NULL ? t->space : NULL;
}

float kcc_testkit_dt( const kcc_testkit* t )
{
	return t != NULL ? t->dt : 0.0f;
}
