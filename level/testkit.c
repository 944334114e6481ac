// SPDX-License-Identifier: MIT
// The test kit: its own space with the level and one character, stepped in the documented frame order (platforms,
// then the character), with every frame and event recorded for the test to ask about afterwards.
#define _POSIX_C_SOURCE 200809L // dup, dup2 and fileno under -std=c11
#include "script.h"

#include <math.h>
#include <stdlib.h>
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
	char* map_path;            // owned copies of the map's source, to load it again
	char* map_json;
	size_t map_size;
	char* map_name;
	char* solid_property;      // copies of the level def's strings
	char* ldtk_level;
	kcc_level_def level_def;   // the def's (its strings the copies above), its rules replaced by these:
	kcc_level_rule* rules;     // the def's rules and its rules text's (strings in rule_text)
	int rule_count;
	char* rule_text;
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

// Where a spawn spec puts the character: at an object (its bottom; a point object's point) or at a point.
typedef struct kcc_spawn_site
{
	const kcc_level_object* object; // NULL for a point
	vec2s point;                    // the object's position, or the point
	float bottom;                   // the object's lowest y, or the point's y
} kcc_spawn_site;

static bool kcc_equal_nocase( const char* a, const char* b )
{
	for ( ; *a != '\0' && *b != '\0'; ++a, ++b )
	{
		char x = *a >= 'A' && *a <= 'Z' ? (char)( *a - 'A' + 'a' ) : *a;
		char y = *b >= 'A' && *b <= 'Z' ? (char)( *b - 'A' + 'a' ) : *b;
		if ( x != y )
		{
			return false;
		}
	}
	return *a == *b;
}

static bool kcc_contains_spawn( const char* text )
{
	for ( ; *text != '\0'; ++text )
	{
		char head[6];
		size_t n = 0;
		while ( n < 5 && text[n] != '\0' )
		{
			head[n] = text[n];
			++n;
		}
		head[n] = '\0';
		if ( n == 5 && kcc_equal_nocase( head, "spawn" ) )
		{
			return true;
		}
	}
	return false;
}

// An object a character may start at: of kind spawn, or one that makes no shape (a point, an entity, an object
// of a class nothing knows); never inside a solid, a zone, a platform or a crate.
static bool kcc_can_spawn( const kcc_level_object* o )
{
	return o->kind == KCC_LEVEL_SPAWN || o->kind == KCC_LEVEL_OTHER;
}

// A spawn by the map's own word, when none is of kind spawn: a shapeless object whose name or class holds
// "spawn", or is "start" or "player" (any case).
static bool kcc_looks_like_spawn( const kcc_level_object* o )
{
	return o->kind == KCC_LEVEL_SPAWN ||
		   ( kcc_can_spawn( o ) && ( kcc_contains_spawn( o->name ) || kcc_contains_spawn( o->class_name ) ||
									 kcc_equal_nocase( o->name, "start" ) || kcc_equal_nocase( o->name, "player" ) ||
									 kcc_equal_nocase( o->class_name, "player" ) ) );
}

// The nth (from 1) object named name that a character may start at, those of kind spawn first when there are
// some.
static const kcc_level_object* kcc_nth_named( const kcc_level* level, const char* name, size_t length, long n )
{
	for ( int pass = 0; pass < 2; ++pass )
	{
		long seen = 0;
		const kcc_level_object* last = NULL;
		for ( int i = 0; i < kcc_level_object_count( level ); ++i )
		{
			const kcc_level_object* o = kcc_level_get_object( level, i );
			if ( ( pass == 1 ? kcc_can_spawn( o ) : o->kind == KCC_LEVEL_SPAWN ) && strlen( o->name ) == length &&
				 strncmp( o->name, name, length ) == 0 )
			{
				last = o;
				if ( ++seen == n )
				{
					return o;
				}
			}
		}
		if ( last != NULL )
		{
			return NULL; // namesakes of kind spawn exist, fewer than n
		}
	}
	return NULL;
}

// A spawn spec: NULL (the first spawn: of kind spawn, else the first object that looks like one), "NAME" (the
// first object of that name a character may start at, one of kind spawn first), "NAME[N]" (the Nth of them),
// "@X,Y" (a point, world units). False when there is none.
static bool kcc_find_spawn( const kcc_testkit* t, const char* spec, kcc_spawn_site* site )
{
	const kcc_level_object* o = NULL;
	if ( spec != NULL && spec[0] == '@' )
	{
		char* end = NULL;
		double x = strtod( spec + 1, &end );
		bool ok = end != spec + 1 && *end == ',';
		double y = ok ? strtod( end + 1, &end ) : 0.0;
		if ( ok == false || *end != '\0' || kcc_is_valid_float( (float)x ) == false ||
			 kcc_is_valid_float( (float)y ) == false || fabs( x ) > 1.0e6 || fabs( y ) > 1.0e6 )
		{
			return false;
		}
		site->object = NULL;
		site->point = kcc_v2( (float)x, (float)y );
		site->bottom = (float)y;
		return true;
	}
	if ( spec == NULL )
	{
		o = kcc_level_find( t->level, KCC_LEVEL_SPAWN, NULL );
		for ( int i = 0; o == NULL && i < kcc_level_object_count( t->level ); ++i )
		{
			const kcc_level_object* c = kcc_level_get_object( t->level, i );
			o = kcc_looks_like_spawn( c ) ? c : NULL;
		}
	}
	else
	{
		o = kcc_nth_named( t->level, spec, strlen( spec ), 1 );
		const char* bracket = strrchr( spec, '[' );
		char* end = NULL;
		long n = bracket != NULL ? strtol( bracket + 1, &end, 10 ) : 0;
		if ( o == NULL && bracket != NULL && end != bracket + 1 && end[0] == ']' && end[1] == '\0' && n >= 1 )
		{
			o = kcc_nth_named( t->level, spec, (size_t)( bracket - spec ), n );
		}
	}
	if ( o == NULL )
	{
		return false;
	}
	site->object = o;
	site->point = o->position;
	site->bottom = o->bounds.min.y;
	return true;
}

// The spawns a map has, for a message: "'start', 'Spawn Point' (2 of that name)", or a sentence saying none.
static void kcc_list_spawns( const kcc_level* level, char* out, size_t size )
{
	size_t used = 0;
	int listed = 0;
	out[0] = '\0';
	for ( int i = 0; i < kcc_level_object_count( level ) && used + 1 < size; ++i )
	{
		const kcc_level_object* o = kcc_level_get_object( level, i );
		if ( kcc_looks_like_spawn( o ) == false )
		{
			continue;
		}
		int same = 0, before = 0;
		for ( int k = 0; k < kcc_level_object_count( level ); ++k )
		{
			const kcc_level_object* other = kcc_level_get_object( level, k );
			bool namesake = strcmp( other->name, o->name ) == 0;
			same += namesake;
			before += namesake && k < i && kcc_looks_like_spawn( other );
		}
		if ( before > 0 )
		{
			continue; // listed with its first namesake
		}
		int n = snprintf( out + used, size - used, "%s'%s'", listed > 0 ? ", " : "", o->name );
		used = n > 0 && (size_t)n < size - used ? used + (size_t)n : size - 1;
		if ( same > 1 && used + 1 < size )
		{
			n = snprintf( out + used, size - used, " (%d of that name: '%s[2]' is the second)", same, o->name );
			used = n > 0 && (size_t)n < size - used ? used + (size_t)n : size - 1;
		}
		listed += 1;
	}
	if ( listed == 0 )
	{
		snprintf( out, size, "the map has none: no object of class spawn, none named like one" );
	}
}

// Platformer: the character's lowest point on the spawn's bottom (a point spawn: on the point), one skin above.
// Top-down: its centre on the spawn.
static vec2s kcc_spawn_position( const kcc_testkit* t, const kcc_spawn_site* site )
{
	if ( t->character_def.mode == KCC_CHARACTER_TOP_DOWN )
	{
		return site->point;
	}
	kcc_aabb b = kcc_shape_bounds( &t->character_def.controller.shape );
	return kcc_v2( site->point.x, site->bottom - b.min.y + t->character_def.controller.skin );
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

static bool kcc_make_character( kcc_testkit* t, const kcc_spawn_site* spawn )
{
	kcc_character_destroy( t->character );
	t->character = kcc_character_create( t->space, &t->character_def, kcc_spawn_position( t, spawn ) );
	return t->character != NULL;
}

// A copy of text in one allocation (NULL stays NULL); false when out of memory.
static bool kcc_copy_text( const char* text, size_t size, char** out )
{
	*out = NULL;
	if ( text == NULL )
	{
		return true;
	}
	*out = malloc( size + 1 );
	if ( *out != NULL )
	{
		memcpy( *out, text, size );
		( *out )[size] = '\0';
	}
	return *out != NULL;
}

// The level's rules kept for loading it again: the def's (their strings copied) and then its rules text's, one a
// line. False with the error when one is malformed or memory runs out.
static bool kcc_keep_rules( kcc_testkit* t, const kcc_testkit_def* def, kcc_testkit_error* error )
{
	size_t text = 0;
	int lines = 0;
	for ( int i = 0; i < def->level.rule_count; ++i )
	{
		const kcc_level_rule* r = def->level.rules + i;
		const char* fields[4] = { r->layer, r->class_name, r->name, r->property };
		for ( int k = 0; k < 4; ++k )
		{
			text += fields[k] != NULL ? strlen( fields[k] ) + 1 : 0;
		}
	}
	size_t extra = def->rules != NULL ? strlen( def->rules ) : 0;
	for ( size_t i = 0; i < extra; ++i )
	{
		lines += def->rules[i] == '\n';
	}
	int capacity = def->level.rule_count + lines + 1;
	t->rules = malloc( (size_t)capacity * sizeof( kcc_level_rule ) );
	t->rule_text = malloc( text + extra + 1 );
	if ( t->rules == NULL || t->rule_text == NULL )
	{
		kcc_testkit_fail( error, KCC_LEVEL_ERROR_MEMORY, "kcc_testkit_create: out of memory" );
		return false;
	}
	char* at = t->rule_text;
	for ( int i = 0; i < def->level.rule_count; ++i )
	{
		kcc_level_rule r = def->level.rules[i];
		const char** fields[4] = { &r.layer, &r.class_name, &r.name, &r.property };
		for ( int k = 0; k < 4; ++k )
		{
			if ( *fields[k] != NULL )
			{
				size_t n = strlen( *fields[k] ) + 1;
				memcpy( at, *fields[k], n );
				*fields[k] = at;
				at += n;
			}
		}
		t->rules[t->rule_count++] = r;
	}
	memcpy( at, def->rules != NULL ? def->rules : "", extra + 1 );
	for ( int number = 1; at != NULL; ++number )
	{
		char* next = strchr( at, '\n' );
		if ( next != NULL )
		{
			*next++ = '\0';
		}
		const char* problem = NULL;
		char* start = at;
		while ( *start == ' ' || *start == '\t' || *start == '\r' )
		{
			++start;
		}
		char* cr = strchr( start, '\r' );
		if ( cr != NULL )
		{
			*cr = '\0';
		}
		if ( *start != '\0' && kcc_script_rule( start, t->rules + t->rule_count, &problem ) == false )
		{
			kcc_testkit_fail( error, KCC_LEVEL_ERROR_ARGUMENT, "kcc_testkit_create: rules line %d: %s", number,
							  problem );
			return false;
		}
		t->rule_count += *start != '\0';
		at = next;
	}
	return true;
}

// Loads the level (again, with more rules: a script's rule lines) and puts the character at its spawn. Until it
// succeeds the kit keeps the level and character it had; false with the error.
static bool kcc_testkit_load( kcc_testkit* t, const kcc_level_rule* more, int more_count, kcc_testkit_error* error )
{
	kcc_level_rule* rules = malloc( (size_t)( t->rule_count + more_count + 1 ) * sizeof( kcc_level_rule ) );
	if ( rules == NULL )
	{
		kcc_testkit_fail( error, KCC_LEVEL_ERROR_MEMORY, "kcc_testkit: out of memory" );
		return false;
	}
	memcpy( rules, t->rules, (size_t)t->rule_count * sizeof( kcc_level_rule ) );
	if ( more_count > 0 )
	{
		memcpy( rules + t->rule_count, more, (size_t)more_count * sizeof( kcc_level_rule ) );
	}
	kcc_level_def def = t->level_def;
	def.rules = rules;
	def.rule_count = t->rule_count + more_count;
	kcc_level* level = NULL;
	kcc_level_status status =
		t->map_path != NULL ? kcc_level_load_file( t->space, t->map_path, &def, &level, error )
							: kcc_level_load_memory( t->space, t->map_json, t->map_size, t->map_name, &def, &level, error );
	free( rules );
	if ( status != KCC_LEVEL_OK )
	{
		return false;
	}
	int objects = kcc_level_object_count( level );
	int* zone_count = malloc( ( (size_t)objects + 1 ) * sizeof( int ) );
	int* zone_now = malloc( ( (size_t)objects + 1 ) * sizeof( int ) );
	kcc_level* old = t->level;
	t->level = level;
	const char* spec = t->spawn[0] != '\0' ? t->spawn : NULL;
	kcc_spawn_site spawn;
	bool ok = false;
	if ( zone_count == NULL || zone_now == NULL )
	{
		kcc_testkit_fail( error, KCC_LEVEL_ERROR_MEMORY, "kcc_testkit: out of memory" );
	}
	else if ( kcc_find_spawn( t, spec, &spawn ) == false )
	{
		char spawns[256];
		kcc_list_spawns( level, spawns, sizeof( spawns ) );
		if ( spec != NULL && spec[0] == '@' )
		{
			kcc_testkit_fail( error, KCC_LEVEL_ERROR_INVALID, "%s: spawn '%s' is not a point @X,Y (world units)",
							  t->map_name, spec );
		}
		else
		{
			kcc_testkit_fail( error, KCC_LEVEL_ERROR_INVALID, "%s: no spawn %s%s%s (its spawns: %s)", t->map_name,
							  spec != NULL ? "named '" : "", spec != NULL ? spec : "object", spec != NULL ? "'" : "",
							  spawns );
		}
	}
	else
	{
		kcc_character_destroy( t->character );
		t->character = NULL;
		kcc_level_destroy( old );
		old = NULL;
		vec2s tile = kcc_level_get_tile_size( level );
		int shapes = kcc_level_get_info( level ).shape_count;
		cpSpaceUseSpatialHash( t->space, 2.0 * (double)fmaxf( tile.x, tile.y ), shapes > 256 ? 4 * shapes : 1024 );
		free( t->zone_count );
		free( t->zone_now );
		t->zone_count = zone_count;
		t->zone_now = zone_now;
		zone_count = zone_now = NULL;
		ok = kcc_make_character( t, &spawn );
		if ( ok == false )
		{
			const char* problem = kcc_controller_def_problem( &t->character_def.controller );
			kcc_testkit_fail( error, KCC_LEVEL_ERROR_ARGUMENT, "kcc_testkit: the character def is refused: %s",
							  problem != NULL ? problem : "a character field is out of range" );
		}
		else
		{
			kcc_clear_records( t );
		}
	}
	if ( old != NULL )
	{
		// It failed before the swap: the kit keeps what it had.
		t->level = old;
		kcc_level_destroy( level );
	}
	free( zone_count );
	free( zone_now );
	return ok;
}

kcc_testkit* kcc_testkit_create( const kcc_testkit_def* def, kcc_testkit_error* error )
{
	if ( def != NULL && def->internal_cookie == KCC_TESTKIT_COOKIE &&
		 !( def->dt > 0.0f && def->dt <= KCC_TESTKIT_MAX_DT ) )
	{
		kcc_testkit_fail( error, KCC_LEVEL_ERROR_ARGUMENT, "kcc_testkit_create: dt (%g) must be in (0, %g] seconds",
						  (double)def->dt, (double)KCC_TESTKIT_MAX_DT );
		return NULL;
	}
	if ( def == NULL || def->internal_cookie != KCC_TESTKIT_COOKIE || ( def->map_path == NULL && def->map_json == NULL ) ||
		 ( def->spawn != NULL && strlen( def->spawn ) >= sizeof( ( (kcc_testkit*)0 )->spawn ) ) )
	{
		kcc_testkit_fail( error, KCC_LEVEL_ERROR_ARGUMENT,
						  "kcc_testkit_create: the def must come from kcc_default_testkit_def, with a map and a spawn "
						  "name under 128 bytes" );
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
	// The map and the level def are kept: a script's rule lines load the level again.
	t->level_def = def->level;
	bool copied = kcc_copy_text( def->map_path, def->map_path != NULL ? strlen( def->map_path ) : 0, &t->map_path ) &&
				  kcc_copy_text( def->map_path == NULL ? def->map_json : NULL, def->map_size, &t->map_json ) &&
				  kcc_copy_text( map_name, strlen( map_name ), &t->map_name ) &&
				  kcc_copy_text( def->level.solid_property,
								 def->level.solid_property != NULL ? strlen( def->level.solid_property ) : 0,
								 &t->solid_property ) &&
				  kcc_copy_text( def->level.ldtk_level, def->level.ldtk_level != NULL ? strlen( def->level.ldtk_level ) : 0,
								 &t->ldtk_level );
	t->level_def.solid_property = t->solid_property;
	t->level_def.ldtk_level = t->ldtk_level;
	t->map_size = def->map_size;
	if ( copied == false )
	{
		kcc_testkit_fail( error, KCC_LEVEL_ERROR_MEMORY, "kcc_testkit_create: out of memory" );
		kcc_testkit_destroy( t );
		return NULL;
	}
	if ( kcc_keep_rules( t, def, error ) == false )
	{
		kcc_testkit_destroy( t );
		return NULL;
	}
	t->space = kcc_testkit_space_new();
	// Tile maps query much faster through a spatial hash than through the default tree, and Chipmunk's tree is slow
	// to insert into (a million tiles take seconds): hash from the start, sized for the level once it is loaded.
	cpSpaceUseSpatialHash( t->space, 2.0, 1024 );
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
	if ( kcc_testkit_load( t, NULL, 0, error ) == false )
	{
		kcc_testkit_destroy( t );
		return NULL;
	}
	return t;
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
	free( t->map_path );
	free( t->map_json );
	free( t->map_name );
	free( t->solid_property );
	free( t->ldtk_level );
	free( t->rules );
	free( t->rule_text );
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
	if ( t->frame_count >= KCC_TESTKIT_MAX_FRAMES )
	{
		return KCC_ERROR_TOO_LARGE;
	}
	if ( kcc_grow( (void**)&t->frames, &t->frame_capacity, t->frame_count + 1, sizeof( kcc_testkit_frame ) ) == false )
	{
		return KCC_ERROR_INVALID_ARGUMENT;
	}
	kcc_status level_status = kcc_level_step( t->level, t->dt );
	if ( level_status != KCC_OK )
	{
		return level_status;
	}
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
		const char* name = kcc_level_get_shape_name( t->level, r.floor_shape );
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
	if ( t == NULL )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	if ( frames < 0 )
	{
		return KCC_ERROR_INVALID_ARGUMENT;
	}
	if ( frames > KCC_TESTKIT_MAX_FRAMES - t->frame_count )
	{
		return KCC_ERROR_TOO_LARGE;
	}
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
	kcc_spawn_site site;
	if ( t == NULL || kcc_find_spawn( t, spawn, &site ) == false ||
		 kcc_character_set_position( t->character, kcc_spawn_position( t, &site ) ) != KCC_OK )
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
		if ( ( c->op == KCC_SCRIPT_MODE || c->op == KCC_SCRIPT_RULE ) && held )
		{
			return kcc_script_fail( error, name, c->line, "%s must come before the first frame",
									c->op == KCC_SCRIPT_MODE ? "mode" : "a rule" );
		}
		kcc_spawn_site site;
		if ( c->op == KCC_SCRIPT_SPAWN && kcc_find_spawn( t, c->spawn, &site ) == false )
		{
			char spawns[200];
			kcc_list_spawns( t->level, spawns, sizeof( spawns ) );
			return c->spawn[0] == '@'
					   ? kcc_script_fail( error, name, c->line, "spawn '%s' is not a point @X,Y", c->spawn )
					   : kcc_script_fail( error, name, c->line, "the level has no spawn named '%s' (its spawns: %s)",
										  c->spawn, spawns );
		}
		held = held || ( c->op == KCC_SCRIPT_HOLD && c->frames > 0 );
	}
	// The record's room: a script that would run past KCC_TESTKIT_MAX_FRAMES runs nothing.
	int frames = 1; // a press at the very end takes one more frame
	for ( int i = 0; i < s->count; ++i )
	{
		frames += s->commands[i].op == KCC_SCRIPT_HOLD ? s->commands[i].frames : 0;
		if ( frames > KCC_TESTKIT_MAX_FRAMES - t->frame_count )
		{
			return kcc_script_fail( error, name, s->commands[i].line,
									"the record is full: %d frames recorded, at most %d between resets "
									"(kcc_testkit_reset)",
									t->frame_count, KCC_TESTKIT_MAX_FRAMES );
		}
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
	// Rule lines: the level loads again with them after the kit's own, before the first frame.
	kcc_level_rule* rules = ok ? malloc( (size_t)( s.count + 1 ) * sizeof( kcc_level_rule ) ) : NULL;
	int rule_count = 0;
	for ( int i = 0; rules != NULL && i < s.count; ++i )
	{
		if ( s.commands[i].op == KCC_SCRIPT_RULE )
		{
			rules[rule_count++] = s.commands[i].rule;
		}
	}
	if ( ok && ( rules == NULL || ( rule_count > 0 && kcc_testkit_load( t, rules, rule_count, error ) == false ) ) )
	{
		if ( rules == NULL )
		{
			kcc_testkit_fail( error, KCC_LEVEL_ERROR_MEMORY, "kcc_testkit_run_script: out of memory" );
		}
		ok = false;
	}
	free( rules );
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
				kcc_spawn_site spawn;
				ok = kcc_find_spawn( t, t->spawn[0] != '\0' ? t->spawn : NULL, &spawn ) &&
					 kcc_make_character( t, &spawn );
				break;
			}
			case KCC_SCRIPT_SPAWN:
				ok = kcc_testkit_spawn( t, c->spawn );
				break;
			case KCC_SCRIPT_RULE:
				break; // applied before the first command
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

vec2s kcc_testkit_get_position( const kcc_testkit* t )
{
	return t != NULL ? kcc_controller_get_position( kcc_character_get_controller( t->character ) ) : kcc_v2( 0.0f, 0.0f );
}

vec2s kcc_testkit_get_velocity( const kcc_testkit* t )
{
	return t != NULL ? kcc_character_get_velocity( t->character ) : kcc_v2( 0.0f, 0.0f );
}

uint32_t kcc_testkit_get_flags( const kcc_testkit* t )
{
	return t != NULL ? t->flags : 0;
}

bool kcc_testkit_on_floor( const kcc_testkit* t )
{
	return t != NULL && t->floor_name != NULL;
}

const char* kcc_testkit_get_floor_name( const kcc_testkit* t )
{
	return t != NULL ? t->floor_name : NULL;
}

const kcc_level_object* kcc_testkit_get_floor_object( const kcc_testkit* t )
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

const kcc_testkit_event* kcc_testkit_get_events( const kcc_testkit* t )
{
	return t != NULL ? t->events : NULL;
}

int kcc_testkit_frame_count( const kcc_testkit* t )
{
	return t != NULL ? t->frame_count : 0;
}

const kcc_testkit_frame* kcc_testkit_get_frames( const kcc_testkit* t )
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

kcc_level* kcc_testkit_get_level( const kcc_testkit* t )
{
	return t != NULL ? t->level : NULL;
}

kcc_character* kcc_testkit_get_character( const kcc_testkit* t )
{
	return t != NULL ? t->character : NULL;
}

cpSpace* kcc_testkit_get_space( const kcc_testkit* t )
{
	return t != NULL ? t->space : NULL;
}

float kcc_testkit_get_dt( const kcc_testkit* t )
{
	return t != NULL ? t->dt : 0.0f;
}
