// SPDX-License-Identifier: MIT
#include "alloc_count.h"

#include <stddef.h>

void* __real_malloc( size_t size );
void* __real_calloc( size_t count, size_t size );
void* __real_realloc( void* memory, size_t size );
void __real_free( void* memory );
void* __wrap_malloc( size_t size );
void* __wrap_calloc( size_t count, size_t size );
void* __wrap_realloc( void* memory, size_t size );
void __wrap_free( void* memory );

static uint64_t s_allocations = 0;

uint64_t kcc_test_allocation_count( void )
{
	return s_allocations;
}

void* __wrap_malloc( size_t size )
{
	s_allocations += 1;
	return __real_malloc( size );
}

void* __wrap_calloc( size_t count, size_t size )
{
	s_allocations += 1;
	return __real_calloc( count, size );
}

void* __wrap_realloc( void* memory, size_t size )
{
	s_allocations += 1;
	return __real_realloc( memory, size );
}

void __wrap_free( void* memory )
{
	__real_free( memory );
}
