// SPDX-License-Identifier: MIT
// kcc_run: runs a Tiled level headless with an input script and prints the trajectory (or writes it as CSV):
// frame, time, position, velocity, flags, the floor's Tiled name and the frame's events. The character model and
// the script are the test kit's (docs/testkit.md).
#include "kcc/testkit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage( FILE* out )
{
	fprintf( out,
			 "usage: kcc_run MAP SCRIPT [options]   (MAP: .tmj/.json/.tmx or .ldtk; SCRIPT: a file, or - for stdin)\n"
			 "  --csv FILE        write every frame as CSV to FILE (- for standard output)\n"
			 "  --spawn NAME      start at this object: a spawn's name (NAME[2]: the second of that name), or @X,Y\n"
			 "                    (a point, world units); default: the first spawn (docs/testkit.md)\n"
			 "  --rule RULE       a level rule, 'key=value, ...: kind' (keys layer, class, name, property; kinds\n"
			 "                    solid, one_way, platform, zone, spawn, crate, path, other); repeat for more\n"
			 "  --level ID        the LDtk level to load (default: the project's first)\n"
			 "  --top-down        a top-down character (the script can also say 'mode top-down')\n"
			 "  --shape KIND      capsule (default, 1.2 tall), circle (radius 0.4) or box (0.7 x 1.0, rounded)\n"
			 "  --ppu N           Tiled pixels per world unit (default: the map's tile height)\n"
			 "  --solid NAME      the bool tile property that makes a tile solid (default solid; Phaser maps: collides)\n"
			 "  --dt SECONDS      frame time (default 1/60)\n"
			 "  --every N         print every Nth frame (frames with events are always printed)\n"
			 "  --quiet           print the summary only\n" );
}

static char* read_text( const char* path )
{
	FILE* f = strcmp( path, "-" ) == 0 ? stdin : fopen( path, "rb" );
	if ( f == NULL )
	{
		return NULL;
	}
	size_t size = 0, capacity = 4096;
	char* text = malloc( capacity );
	while ( text != NULL )
	{
		size_t got = fread( text + size, 1, capacity - 1 - size, f );
		size += got;
		if ( got == 0 )
		{
			break;
		}
		if ( size + 1 == capacity )
		{
			char* bigger = realloc( text, capacity * 2 );
			if ( bigger == NULL )
			{
				free( text );
			}
			text = bigger;
			capacity *= 2;
		}
	}
	if ( f != stdin )
	{
		fclose( f );
	}
	if ( text != NULL )
	{
		text[size] = '\0';
	}
	return text;
}

static void flag_letters( uint32_t flags, bool crouching, char* out )
{
	static const struct
	{
		uint32_t bit;
		char letter;
	} letters[] = { { KCC_ON_FLOOR, 'F' },  { KCC_ON_WALL, 'W' },      { KCC_ON_CEILING, 'C' },
					{ KCC_SNAPPED, 'S' },   { KCC_STEPPED, 'T' },      { KCC_DEPENETRATED, 'D' },
					{ KCC_CRUSHED, 'X' },   { KCC_HIT_LIMIT, 'L' },    { KCC_CANDIDATES_TRUNCATED, '!' },
					{ KCC_CORNER_CORRECTED, 'N' } };
	int n = 0;
	for ( size_t i = 0; i < sizeof( letters ) / sizeof( letters[0] ); ++i )
	{
		if ( flags & letters[i].bit )
		{
			out[n++] = letters[i].letter;
		}
	}
	if ( crouching )
	{
		out[n++] = 'c';
	}
	if ( n == 0 )
	{
		out[n++] = '-';
	}
	out[n] = '\0';
}

// "land:ground zone_begin:checkpoint" (names quoted when they hold a space or a separator).
static void event_text( const kcc_testkit* t, const kcc_testkit_frame* f, char* out, size_t size )
{
	size_t used = 0;
	out[0] = '\0';
	for ( int i = 0; i < f->event_count && used < size; ++i )
	{
		const kcc_testkit_event* e = kcc_testkit_get_events( t ) + f->first_event + i;
		bool quote = strpbrk( e->name, " ,;\"" ) != NULL;
		int n = snprintf( out + used, size - used, "%s%s%s%s%s%s", used > 0 ? " " : "", kcc_testkit_event_name( e->type ),
						  e->name[0] != '\0' || quote ? ":" : "", quote ? "'" : "", e->name, quote ? "'" : "" );
		used += n > 0 ? (size_t)n : 0;
	}
}

static kcc_shape character_shape( const char* kind, bool* ok )
{
	*ok = true;
	if ( strcmp( kind, "circle" ) == 0 )
	{
		return kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 0.4f );
	}
	if ( strcmp( kind, "box" ) == 0 )
	{
		return kcc_make_box( kcc_v2( 0.3f, 0.45f ), 0.05f );
	}
	*ok = strcmp( kind, "capsule" ) == 0;
	return kcc_make_capsule( kcc_v2( 0.0f, -0.3f ), kcc_v2( 0.0f, 0.3f ), 0.3f );
}

int main( int argc, char** argv )
{
	const char* positional[2] = { NULL, NULL };
	int positional_count = 0;
	const char* csv_path = NULL;
	int every = 1;
	bool quiet = false;
	kcc_testkit_def def = kcc_default_testkit_def();
	// --rule values, one a line, for the test kit's rules text.
	static char rules[16384];
	size_t rules_length = 0;
	def.rules = rules;
	for ( int i = 1; i < argc; ++i )
	{
		const char* a = argv[i];
		bool has_value = i + 1 < argc;
		if ( strcmp( a, "--help" ) == 0 || strcmp( a, "-h" ) == 0 )
		{
			usage( stdout );
			return 0;
		}
		else if ( strcmp( a, "--csv" ) == 0 && has_value )
		{
			csv_path = argv[++i];
		}
		else if ( strcmp( a, "--spawn" ) == 0 && has_value )
		{
			def.spawn = argv[++i];
		}
		else if ( strcmp( a, "--rule" ) == 0 && has_value )
		{
			size_t n = strlen( argv[++i] );
			if ( rules_length + n + 2 > sizeof( rules ) || strchr( argv[i], '\n' ) != NULL )
			{
				fprintf( stderr, "kcc_run: --rule: the rules are too long (or hold a line break)\n" );
				return 2;
			}
			memcpy( rules + rules_length, argv[i], n );
			rules_length += n;
			rules[rules_length++] = '\n';
		}
		else if ( strcmp( a, "--level" ) == 0 && has_value )
		{
			def.level.ldtk_level = argv[++i];
		}
		else if ( strcmp( a, "--top-down" ) == 0 )
		{
			def.character.mode = KCC_CHARACTER_TOP_DOWN;
		}
		else if ( strcmp( a, "--shape" ) == 0 && has_value )
		{
			bool ok;
			def.character.controller.shape = character_shape( argv[++i], &ok );
			if ( ok == false )
			{
				fprintf( stderr, "kcc_run: --shape takes capsule, circle or box\n" );
				return 2;
			}
		}
		else if ( strcmp( a, "--ppu" ) == 0 && has_value )
		{
			def.level.pixels_per_unit = strtof( argv[++i], NULL );
		}
		else if ( strcmp( a, "--solid" ) == 0 && has_value )
		{
			def.level.solid_property = argv[++i];
		}
		else if ( strcmp( a, "--dt" ) == 0 && has_value )
		{
			def.dt = strtof( argv[++i], NULL );
		}
		else if ( strcmp( a, "--every" ) == 0 && has_value )
		{
			every = atoi( argv[++i] );
			every = every > 0 ? every : 1;
		}
		else if ( strcmp( a, "--quiet" ) == 0 )
		{
			quiet = true;
		}
		else if ( a[0] == '-' && a[1] == '-' )
		{
			fprintf( stderr, "kcc_run: unknown option %s (or a missing value)\n", a );
			usage( stderr );
			return 2;
		}
		else if ( positional_count < 2 )
		{
			positional[positional_count++] = a;
		}
		else
		{
			usage( stderr );
			return 2;
		}
	}
	if ( positional_count != 2 )
	{
		usage( stderr );
		return 2;
	}
	char* script = read_text( positional[1] );
	if ( script == NULL )
	{
		fprintf( stderr, "kcc_run: cannot read script %s\n", positional[1] );
		return 1;
	}
	def.map_path = positional[0];
	kcc_testkit_error error;
	kcc_testkit* t = kcc_testkit_create( &def, &error );
	if ( t == NULL )
	{
		fprintf( stderr, "kcc_run: %s\n", error.message );
		free( script );
		return 1;
	}
	bool ok = kcc_testkit_run_script( t, script, strcmp( positional[1], "-" ) == 0 ? "stdin" : positional[1], &error );
	// The level's warnings (after the script: its rule lines load the level again).
	const kcc_level* level = kcc_testkit_get_level( t );
	for ( int i = 0; i < kcc_level_warning_count( level ); ++i )
	{
		fprintf( stderr, "kcc_run: warning: %s\n", kcc_level_get_warning( level, i ) );
	}
	free( script );
	if ( ok == false )
	{
		fprintf( stderr, "kcc_run: %s\n", error.message );
		kcc_testkit_destroy( t );
		return 1;
	}
	const kcc_testkit_frame* frames = kcc_testkit_get_frames( t );
	int count = kcc_testkit_frame_count( t );
	char flags[24], events[1024];
	FILE* csv = NULL;
	if ( csv_path != NULL )
	{
		csv = strcmp( csv_path, "-" ) == 0 ? stdout : fopen( csv_path, "w" );
		if ( csv == NULL )
		{
			fprintf( stderr, "kcc_run: cannot write %s\n", csv_path );
			kcc_testkit_destroy( t );
			return 1;
		}
		fprintf( csv, "frame,time,x,y,vx,vy,flags,floor,events\n" );
		for ( int i = 0; i < count; ++i )
		{
			const kcc_testkit_frame* f = frames + i;
			flag_letters( f->flags, f->crouching, flags );
			event_text( t, f, events, sizeof( events ) );
			// %.9g keeps every float bit: two runs compare byte for byte.
			fprintf( csv, "%d,%.9g,%.9g,%.9g,%.9g,%.9g,%s,\"%s\",\"%s\"\n", f->frame, f->time, f->position.x,
					 f->position.y, f->velocity.x, f->velocity.y, flags, f->floor != NULL ? f->floor : "", events );
		}
		if ( csv != stdout )
		{
			fclose( csv );
		}
	}
	if ( quiet == false && csv != stdout )
	{
		printf( "%6s %8s %9s %9s %8s %8s %-6s %-16s %s\n", "frame", "time", "x", "y", "vx", "vy", "flags", "floor",
				"events" );
		for ( int i = 0; i < count; ++i )
		{
			const kcc_testkit_frame* f = frames + i;
			if ( f->event_count == 0 && f->frame % every != 0 && i != count - 1 )
			{
				continue;
			}
			flag_letters( f->flags, f->crouching, flags );
			event_text( t, f, events, sizeof( events ) );
			printf( "%6d %8.4f %9.4f %9.4f %8.3f %8.3f %-6s %-16s %s\n", f->frame, f->time, f->position.x,
					f->position.y, f->velocity.x, f->velocity.y, flags, f->floor != NULL ? f->floor : "-", events );
		}
	}
	FILE* summary = csv == stdout ? stderr : stdout;
	vec2s p = kcc_testkit_get_position( t );
	uint32_t seen = kcc_testkit_flags_seen( t );
	const char* floor = kcc_testkit_get_floor_name( t );
	char where[160] = "";
	if ( kcc_character_get_def( kcc_testkit_get_character( t ) )->mode == KCC_CHARACTER_PLATFORMER )
	{
		snprintf( where, sizeof( where ), ", %s%.100s", floor != NULL ? "on " : "in the air",
				  floor != NULL ? ( floor[0] != '\0' ? floor : "(unnamed)" ) : "" );
	}
	fprintf( summary, "kcc_run: %d frames (%.3f s): at (%.4f, %.4f)%s; %d landings, %d zone entries, %s\n", count,
			 count > 0 ? frames[count - 1].time : 0.0, p.x, p.y, where, kcc_testkit_count_events( t, KCC_EVENT_LAND, NULL ),
			 kcc_testkit_count_events( t, KCC_EVENT_ZONE_BEGIN, NULL ),
			 ( seen & ( KCC_DEPENETRATED | KCC_CRUSHED ) ) != 0 ? "overlapped a solid (depenetrated or crushed)"
																 : "never overlapped a solid" );
	kcc_testkit_destroy( t );
	return 0;
}
