// SPDX-License-Identifier: MIT
// A recording assert handler for tests that feed bad input on purpose: install it with
// kcc_set_assert_fcn( record_assert ); it returns 0, so the function under test takes its safe release path, and
// expect_message checks (in builds with asserts) that the last message names the function and the problem.
#pragma once

#include "kcc/base.h"

#include <stdio.h>
#include <string.h>

static char s_last_message[256];
static int s_assert_count = 0;

static inline int record_assert( const char* message, const char* file, int line )
{
	(void)file;
	(void)line;
	snprintf( s_last_message, sizeof( s_last_message ), "%s", message );
	s_assert_count += 1;
	return 0;
}

static inline void reset_asserts( void )
{
	s_last_message[0] = '\0';
	s_assert_count = 0;
}

// CMocka setups: install the recorder for a whole group; clear what it recorded before each test.
static inline int install_recorder( void** state )
{
	(void)state;
	kcc_set_assert_fcn( record_assert );
	return 0;
}

static inline int reset_recorder( void** state )
{
	(void)state;
	reset_asserts();
	return 0;
}

// In debug builds the recorded message must contain both words; release builds record nothing.
static inline void expect_message( const char* function, const char* problem )
{
#if defined( KCC_ENABLE_ASSERT )
	if ( s_assert_count == 0 || strstr( s_last_message, function ) == NULL || strstr( s_last_message, problem ) == NULL )
	{
		fail_msg( "assert message '%s' should name '%s' and '%s'", s_last_message, function, problem );
	}
#else
	(void)function;
	(void)problem;
#endif
}
