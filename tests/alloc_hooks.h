// SPDX-License-Identifier: MIT
// Allocation hooks for kcc_set_allocator that count what kcc2d allocates through them: calls, frees and live bytes
// (each block carries its size in front), and refuses blocks larger than s_hook_largest (out of memory on purpose). Install with kcc_set_allocator( hook_alloc, hook_free, NULL ) after
// hooks_reset(); put the defaults back with kcc_set_allocator( NULL, NULL, NULL ).
#pragma once

#include <stdint.h>
#include <stdlib.h>

static int s_hook_allocs;       // calls of hook_alloc that returned memory
static int s_hook_frees;        // calls of hook_free with memory
static int64_t s_hook_live;     // bytes allocated and not freed
static size_t s_hook_largest = SIZE_MAX; // hook_alloc refuses (returns NULL) any larger block

static inline void hooks_reset( void )
{
	s_hook_allocs = 0;
	s_hook_frees = 0;
	s_hook_live = 0;
	s_hook_largest = SIZE_MAX;
}

static inline void* hook_alloc( size_t size, void* user )
{
	(void)user;
	if ( size > s_hook_largest )
	{
		return NULL;
	}
	size_t* block = malloc( size + 16 );
	if ( block == NULL )
	{
		return NULL;
	}
	block[0] = size;
	s_hook_allocs += 1;
	s_hook_live += (int64_t)size;
	return (char*)block + 16;
}

static inline void hook_free( void* memory, void* user )
{
	(void)user;
	if ( memory == NULL )
	{
		return;
	}
	size_t* block = (size_t*)( (char*)memory - 16 );
	s_hook_frees += 1;
	s_hook_live -= (int64_t)block[0];
	free( block );
}
