// SPDX-License-Identifier: MIT
// The input script of the test kit and kcc_run (docs/testkit.md): parsed whole, with errors naming the line,
// into commands the test kit runs frame by frame.
#pragma once

#include "kcc/testkit.h"

#include <stdlib.h>

typedef enum kcc_script_op
{
	KCC_SCRIPT_MODE = 0,  // character mode (before the first frame)
	KCC_SCRIPT_SPAWN = 1, // put the character at a spawn
	KCC_SCRIPT_HOLD = 2,  // hold an input for some frames (run, move, wait, crouch)
	KCC_SCRIPT_JUMP = 3,  // press jump on the next frame
	KCC_SCRIPT_DROP = 4,  // press drop on the next frame
	KCC_SCRIPT_RULE = 5,  // a level rule (before the first frame: the level loads again with it)
} kcc_script_op;

typedef struct kcc_script_command
{
	kcc_script_op op;
	int line;
	vec2s move;              // HOLD
	bool crouch;             // HOLD
	int frames;              // HOLD
	kcc_character_mode mode; // MODE
	const char* spawn;       // SPAWN: points into the script's own copy of the text
	kcc_level_rule rule;     // RULE: its strings point into the script's own copy of the text
} kcc_script_command;

typedef struct kcc_script
{
	char* text; // owned copy, cut into names
	kcc_script_command* commands;
	int count;
} kcc_script;

/// Writes "name:line: problem" (status KCC_LEVEL_ERROR_INVALID) to error when it is not NULL; returns false.
bool kcc_script_fail( kcc_testkit_error* error, const char* name, int line, const char* format, ... )
#if defined( __GNUC__ )
	__attribute__( ( format( printf, 4, 5 ) ) )
#endif
	;

/// A rule as text, "key=value, key=value: kind" (keys layer, class, name, property; kind solid, one_way, platform,
/// zone, spawn, crate, path or other; ": other" alone matches everything), cut in place (its strings point into
/// text). False with a sentence in *problem.
bool kcc_script_rule( char* text, kcc_level_rule* rule, const char** problem );

/// Parses text (frames counted at dt seconds each). False on an error, written as "name:line: problem".
bool kcc_script_parse( const char* text, const char* name, float dt, kcc_script* script, kcc_testkit_error* error );
void kcc_script_free( kcc_script* script );
