// SPDX-License-Identifier: MIT
// The loader's memory: an arena for what lives as long as the level (strings, properties, per-object arrays)
// and growable lists for the working data of a load.
#include "internal.h"

#include <string.h>

#define KCC_ARENA_BLOCK_SIZE 16384

struct kcc_arena_block
{
	kcc_arena_block* next;
	size_t used, size;
	max_align_t data[]; // aligned for any type
};

void* kcc_arena_alloc( kcc_arena* arena, size_t size )
{
	const size_t align = sizeof( max_align_t );
	size = ( size + align - 1 ) / align * align;
	if ( size == 0 )
	{
		size = align;
	}
	kcc_arena_block* block = arena->head;
	if ( block == NULL || block->size - block->used < size )
	{
		size_t capacity = size > KCC_ARENA_BLOCK_SIZE ? size : KCC_ARENA_BLOCK_SIZE;
		if ( capacity > SIZE_MAX - sizeof( kcc_arena_block ) )
		{
			return NULL;
		}
		block = malloc( sizeof( kcc_arena_block ) + capacity );
		if ( block == NULL )
		{
			return NULL;
		}
		block->used = 0;
		block->size = capacity;
		// A big allocation goes behind the current block so the current one keeps filling.
		if ( arena->head != NULL && capacity == size )
		{
			block->next = arena->head->next;
			arena->head->next = block;
		}
		else
		{
			block->next = arena->head;
			arena->head = block;
		}
	}
	void* memory = (char*)block->data + block->used;
	block->used += size;
	memset( memory, 0, size );
	return memory;
}

char* kcc_arena_strdup( kcc_arena* arena, const char* text )
{
	size_t length = strlen( text );
	char* copy = kcc_arena_alloc( arena, length + 1 );
	if ( copy != NULL )
	{
		memcpy( copy, text, length + 1 );
	}
	return copy;
}

void kcc_arena_free( kcc_arena* arena )
{
	kcc_arena_block* block = arena->head;
	while ( block != NULL )
	{
		kcc_arena_block* next = block->next;
		free( block );
		block = next;
	}
	arena->head = NULL;
}

void* kcc_list_push( kcc_list* list, size_t item_size, int n )
{
	if ( n < 0 || list->count > KCC_LIST_MAX - n )
	{
		return NULL;
	}
	int needed = list->count + n;
	if ( needed > list->capacity )
	{
		int capacity = list->capacity < 16 ? 16 : list->capacity;
		while ( capacity < needed )
		{
			capacity = capacity > KCC_LIST_MAX / 2 ? KCC_LIST_MAX : capacity * 2;
		}
		void* items = malloc( (size_t)capacity * item_size );
		if ( items == NULL )
		{
			return NULL;
		}
		if ( list->count > 0 )
		{
			memcpy( items, list->items, (size_t)list->count * item_size );
		}
		free( list->items );
		list->items = items;
		list->capacity = capacity;
	}
	void* first = (char*)list->items + (size_t)list->count * item_size;
	memset( first, 0, (size_t)n * item_size );
	list->count = needed;
	return first;
}

void kcc_list_free( kcc_list* list )
{
	free( list->items );
	list->items = NULL;
	list->count = 0;
	list->capacity = 0;
}
