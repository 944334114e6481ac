// SPDX-License-Identifier: MIT
#include "kcc/base.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int kcc_default_assert( const char* message, const char* file, int line )
{
	fprintf( stderr, "kcc2d assertion failed: %s (%s:%d)\n", message, file, line );
	return 1;
}

static kcc_assert_fcn* s_assert_fcn = kcc_default_assert;

void kcc_set_assert_fcn( kcc_assert_fcn* fcn )
{
	s_assert_fcn = fcn != NULL ? fcn : kcc_default_assert;
}

void kcc_assert_failed( const char* message, const char* file, int line )
{
	if ( s_assert_fcn( message, file, line ) != 0 )
	{
		abort();
	}
}

static kcc_alloc_fcn* s_alloc_fcn = NULL;
static kcc_free_fcn* s_free_fcn = NULL;
static void* s_alloc_user = NULL;

void kcc_set_allocator( kcc_alloc_fcn* alloc_fcn, kcc_free_fcn* free_fcn, void* user )
{
	// Both or neither: a custom alloc paired with libc free would corrupt the heap.
	if ( alloc_fcn == NULL || free_fcn == NULL )
	{
		alloc_fcn = NULL;
		free_fcn = NULL;
		user = NULL;
	}
	s_alloc_fcn = alloc_fcn;
	s_free_fcn = free_fcn;
	s_alloc_user = user;
}

// Each block starts on a cache line, whatever the hooks' alignment: the hooks' block is a line and a pointer larger,
// and the pointer just before the line keeps where that block starts, for kcc_free.
void* kcc_alloc( size_t size )
{
	const size_t extra = KCC_CACHE_LINE - 1 + sizeof( void* );
	if ( size > SIZE_MAX - extra )
	{
		return NULL;
	}
	void* block = s_alloc_fcn != NULL ? s_alloc_fcn( size + extra, s_alloc_user ) : malloc( size + extra );
	if ( block == NULL )
	{
		return NULL;
	}
	uintptr_t line = ( (uintptr_t)block + sizeof( void* ) + KCC_CACHE_LINE - 1 ) / KCC_CACHE_LINE * KCC_CACHE_LINE;
	void* memory = (void*)line;
	memcpy( (char*)memory - sizeof( void* ), &block, sizeof( void* ) );
	return memory;
}

bool kcc_reserve( void** array, int* capacity, int needed, size_t size )
{
	if ( needed <= *capacity )
	{
		return true;
	}
	int grown = *capacity > 0 ? *capacity : needed > 64 ? needed : 64;
	while ( grown < needed )
	{
		grown *= 2;
	}
	void* bigger = kcc_alloc( (size_t)grown * size );
	if ( bigger == NULL )
	{
		return false;
	}
	if ( *array != NULL )
	{
		memcpy( bigger, *array, (size_t)*capacity * size );
		kcc_free( *array );
	}
	*array = bigger;
	*capacity = grown;
	return true;
}

void kcc_free( void* memory )
{
	if ( memory == NULL )
	{
		return;
	}
	void* block;
	memcpy( &block, (char*)memory - sizeof( void* ), sizeof( void* ) );
	if ( s_free_fcn != NULL )
	{
		s_free_fcn( block, s_alloc_user );
	}
	else
	{
		free( block );
	}
}

kcc_isa kcc_isa_cap = KCC_ISA_AVX512;

kcc_isa kcc_limit_isa( kcc_isa limit )
{
	kcc_isa previous = kcc_isa_cap;
	kcc_isa_cap = limit;
	return previous;
}
