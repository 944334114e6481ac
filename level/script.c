// SPDX-License-Identifier: MIT
// The input script: one command per line, '#' starts a comment.
//   mode platformer | top-down      spawn NAME | NAME[N] | @X,Y       rule KEY=VALUE, ...: KIND
//   run left|right|up|down SECONDS
//   move X Y SECONDS                wait SECONDS     jump      drop      crouch [left|right|up|down] SECONDS
// A duration is seconds (0.5) or frames (30f). jump and drop press the button on the next frame that a run, move
// or wait simulates (so "jump" then "run right 1" jumps while running).
#include "script.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// A script runs at most KCC_TESTKIT_MAX_FRAMES frames: an hour at 60 Hz is far beyond a test, and bounds a typo like
// "wait 1e9".
#define KCC_SCRIPT_MAX_TOKENS 8

bool kcc_script_fail( kcc_testkit_error* error, const char* name, int line, const char* format, ... )
{
	if ( error != NULL )
	{
		// The name and the problem are cut to fit the message together.
		char problem[KCC_LEVEL_MESSAGE_SIZE / 2];
		va_list args;
		va_start( args, format );
		vsnprintf( problem, sizeof( problem ), format, args );
		va_end( args );
		error->status = KCC_LEVEL_ERROR_INVALID;
		snprintf( error->message, sizeof( error->message ), "%.200s:%d: %s", name, line, problem );
	}
	return false;
}

static bool kcc_parse_number( const char* token, float* out )
{
	char* end = NULL;
	double v = strtod( token, &end );
	if ( end == token || *end != '\0' || isfinite( v ) == 0 || fabs( v ) > 1.0e30 )
	{
		return false;
	}
	*out = (float)v;
	return true;
}

// Seconds ("0.5") or frames ("30f") into frames at dt.
static bool kcc_parse_duration( const char* token, float dt, int* frames )
{
	size_t n = strlen( token );
	if ( n > 1 && token[n - 1] == 'f' )
	{
		char* end = NULL;
		long v = strtol( token, &end, 10 );
		if ( end != token + n - 1 || v < 0 || v > KCC_TESTKIT_MAX_FRAMES )
		{
			return false;
		}
		*frames = (int)v;
		return true;
	}
	float seconds;
	if ( kcc_parse_number( token, &seconds ) == false || seconds < 0.0f ||
		 (double)seconds / (double)dt > (double)KCC_TESTKIT_MAX_FRAMES )
	{
		return false;
	}
	*frames = (int)lround( (double)seconds / (double)dt );
	return true;
}

static int kcc_tokenize( char* line, char** tokens )
{
	int count = 0;
	char* p = line;
	while ( *p != '\0' )
	{
		while ( *p == ' ' || *p == '\t' )
		{
			++p;
		}
		if ( *p == '\0' )
		{
			break;
		}
		if ( count == KCC_SCRIPT_MAX_TOKENS )
		{
			return count + 1; // too many: the caller reports it
		}
		tokens[count++] = p;
		while ( *p != '\0' && *p != ' ' && *p != '\t' )
		{
			++p;
		}
		if ( *p != '\0' )
		{
			*p++ = '\0';
		}
	}
	return count;
}

static char* kcc_trim( char* text )
{
	while ( *text == ' ' || *text == '\t' )
	{
		++text;
	}
	char* end = text + strlen( text );
	while ( end > text && ( end[-1] == ' ' || end[-1] == '\t' ) )
	{
		*--end = '\0';
	}
	return text;
}

bool kcc_script_rule( char* text, kcc_level_rule* rule, const char** problem )
{
	static const char* kinds[] = { "solid", "one_way", "platform", "zone", "spawn", "crate", "path", "other" };
	memset( rule, 0, sizeof( *rule ) );
	char* colon = strrchr( text, ':' );
	if ( colon == NULL )
	{
		*problem = "a rule is 'key=value, ...: kind', such as 'class=jumpthrough: one_way'";
		return false;
	}
	*colon = '\0';
	const char* kind = kcc_trim( colon + 1 );
	bool known = false;
	for ( int k = 0; k < (int)( sizeof( kinds ) / sizeof( kinds[0] ) ); ++k )
	{
		if ( strcmp( kind, kinds[k] ) == 0 )
		{
			rule->kind = (kcc_level_object_kind)k;
			known = true;
		}
	}
	if ( known == false )
	{
		*problem = "a rule's kind is solid, one_way, platform, zone, spawn, crate, path or other";
		return false;
	}
	char* field = kcc_trim( text );
	while ( *field != '\0' )
	{
		char* comma = strchr( field, ',' );
		if ( comma != NULL )
		{
			*comma = '\0';
		}
		char* equal = strchr( field, '=' );
		if ( equal == NULL )
		{
			*problem = "a rule's fields are key=value (keys layer, class, name, property), separated by commas";
			return false;
		}
		*equal = '\0';
		const char* key = kcc_trim( field );
		const char* value = kcc_trim( equal + 1 );
		const char** slot = strcmp( key, "layer" ) == 0		  ? &rule->layer
							: strcmp( key, "class" ) == 0	  ? &rule->class_name
							: strcmp( key, "name" ) == 0	  ? &rule->name
							: strcmp( key, "property" ) == 0 ? &rule->property
															  : NULL;
		if ( slot == NULL || *slot != NULL )
		{
			*problem = slot == NULL ? "a rule's keys are layer, class, name and property" : "a rule's key is given twice";
			return false;
		}
		*slot = value;
		field = comma != NULL ? kcc_trim( comma + 1 ) : field + strlen( field );
	}
	return true;
}

static bool kcc_parse_line( char* line, int number, const char* name, float dt, kcc_script_command* c,
							kcc_testkit_error* error )
{
	memset( c, 0, sizeof( *c ) );
	c->line = number;
	if ( strncmp( line, "rule", 4 ) == 0 && ( line[4] == ' ' || line[4] == '\t' ) )
	{
		const char* problem = NULL;
		c->op = KCC_SCRIPT_RULE;
		return kcc_script_rule( line + 5, &c->rule, &problem ) ? true
															   : kcc_script_fail( error, name, number, "%s", problem );
	}
	if ( strncmp( line, "spawn", 5 ) == 0 && ( line[5] == ' ' || line[5] == '\t' || line[5] == '\0' ) )
	{
		// The rest of the line is the name: Tiled names may hold spaces.
		char* spawn = line + 5;
		while ( *spawn == ' ' || *spawn == '\t' )
		{
			++spawn;
		}
		char* end = spawn + strlen( spawn );
		while ( end > spawn && ( end[-1] == ' ' || end[-1] == '\t' ) )
		{
			*--end = '\0';
		}
		if ( *spawn == '\0' )
		{
			return kcc_script_fail( error, name, number, "spawn needs the name of a spawn point" );
		}
		c->op = KCC_SCRIPT_SPAWN;
		c->spawn = spawn;
		return true;
	}
	char* t[KCC_SCRIPT_MAX_TOKENS];
	int n = kcc_tokenize( line, t );
	if ( n > KCC_SCRIPT_MAX_TOKENS )
	{
		return kcc_script_fail( error, name, number, "too many words" );
	}
	const char* command = t[0];
	if ( strcmp( command, "jump" ) == 0 || strcmp( command, "drop" ) == 0 )
	{
		c->op = command[0] == 'j' ? KCC_SCRIPT_JUMP : KCC_SCRIPT_DROP;
		return n == 1 ? true : kcc_script_fail( error, name, number, "%s takes nothing after it (found '%s')", command, t[1] );
	}
	if ( strcmp( command, "mode" ) == 0 )
	{
		c->op = KCC_SCRIPT_MODE;
		if ( n == 2 && strcmp( t[1], "platformer" ) == 0 )
		{
			c->mode = KCC_CHARACTER_PLATFORMER;
			return true;
		}
		if ( n == 2 && ( strcmp( t[1], "top-down" ) == 0 || strcmp( t[1], "topdown" ) == 0 ) )
		{
			c->mode = KCC_CHARACTER_TOP_DOWN;
			return true;
		}
		return kcc_script_fail( error, name, number, "mode is 'mode platformer' or 'mode top-down'" );
	}
	c->op = KCC_SCRIPT_HOLD;
	const char* duration = NULL;
	if ( strcmp( command, "wait" ) == 0 )
	{
		if ( n != 2 )
		{
			return kcc_script_fail( error, name, number, "wait takes a duration: 'wait 0.5' (seconds) or 'wait 30f' "
														 "(frames)" );
		}
		duration = t[1];
	}
	else if ( strcmp( command, "run" ) == 0 || ( strcmp( command, "crouch" ) == 0 && n == 3 ) )
	{
		static const struct
		{
			const char* name;
			float x, y;
		} directions[] = { { "left", -1.0f, 0.0f }, { "right", 1.0f, 0.0f }, { "up", 0.0f, 1.0f }, { "down", 0.0f, -1.0f } };
		bool known = false;
		for ( size_t i = 0; n == 3 && i < sizeof( directions ) / sizeof( directions[0] ); ++i )
		{
			if ( strcmp( t[1], directions[i].name ) == 0 )
			{
				c->move = kcc_v2( directions[i].x, directions[i].y );
				known = true;
			}
		}
		if ( known == false )
		{
			return kcc_script_fail( error, name, number, "%s takes left, right, up or down and a duration: '%s right "
														 "2.0'", command, command );
		}
		c->crouch = command[0] == 'c';
		duration = t[2];
	}
	else if ( strcmp( command, "crouch" ) == 0 )
	{
		if ( n != 2 )
		{
			return kcc_script_fail( error, name, number, "crouch takes a duration, and a direction before it to crawl: "
														 "'crouch 1.0', 'crouch left 1.0'" );
		}
		c->crouch = true;
		duration = t[1];
	}
	else if ( strcmp( command, "move" ) == 0 )
	{
		if ( n != 4 || kcc_parse_number( t[1], &c->move.x ) == false ||
			 kcc_parse_number( t[2], &c->move.y ) == false || fabsf( c->move.x ) > 1.0f || fabsf( c->move.y ) > 1.0f )
		{
			return kcc_script_fail( error, name, number, "move takes x and y in [-1, 1] and a duration: 'move 0.5 "
														 "-1 2.0'" );
		}
		duration = t[3];
	}
	else
	{
		return kcc_script_fail( error, name, number,
								"unknown command '%s' (mode, rule, spawn, run, move, wait, crouch, jump, drop)", command );
	}
	if ( kcc_parse_duration( duration, dt, &c->frames ) == false )
	{
		return kcc_script_fail( error, name, number, "'%s' is not a duration: seconds (0.5) or frames (30f), at most "
													 "%d frames", duration, KCC_TESTKIT_MAX_FRAMES );
	}
	return true;
}

bool kcc_script_parse( const char* text, const char* name, float dt, kcc_script* script, kcc_testkit_error* error )
{
	memset( script, 0, sizeof( *script ) );
	name = name != NULL ? name : "script";
	if ( text == NULL )
	{
		return kcc_script_fail( error, name, 0, "no script" );
	}
	size_t length = strlen( text );
	int lines = 1;
	for ( size_t i = 0; i < length; ++i )
	{
		lines += text[i] == '\n';
	}
	script->text = malloc( length + 1 );
	script->commands = malloc( (size_t)lines * sizeof( kcc_script_command ) );
	if ( script->text == NULL || script->commands == NULL )
	{
		kcc_script_free( script );
		return kcc_script_fail( error, name, 0, "out of memory" );
	}
	memcpy( script->text, text, length + 1 );
	long total = 0;
	int number = 0;
	char* line = script->text;
	while ( line != NULL )
	{
		number += 1;
		char* next = strchr( line, '\n' );
		if ( next != NULL )
		{
			*next++ = '\0';
		}
		char* comment = strchr( line, '#' );
		if ( comment != NULL )
		{
			*comment = '\0';
		}
		char* cr = strchr( line, '\r' );
		if ( cr != NULL )
		{
			*cr = '\0';
		}
		while ( *line == ' ' || *line == '\t' )
		{
			++line;
		}
		if ( *line != '\0' )
		{
			kcc_script_command* c = script->commands + script->count;
			if ( kcc_parse_line( line, number, name, dt, c, error ) == false )
			{
				kcc_script_free( script );
				return false;
			}
			total += c->op == KCC_SCRIPT_HOLD ? c->frames : 0;
			if ( total > KCC_TESTKIT_MAX_FRAMES )
			{
				kcc_script_free( script );
				return kcc_script_fail( error, name, number, "the script runs more than %d frames",
										KCC_TESTKIT_MAX_FRAMES );
			}
			script->count += 1;
		}
		line = next;
	}
	return true;
}

void kcc_script_free( kcc_script* script )
{
	free( script->text );
	free( script->commands );
	memset( script, 0, sizeof( *script ) );
}
