// SPDX-License-Identifier: MIT
// Which controllers are alive, and which spaces are in use. A C handle can not tell by itself that it was
// destroyed: the registry lets destroy refuse a second destroy in every build, and lets debug builds name the
// mistake when a destroyed controller is used or when two threads use one cpSpace at once.
#include "internal.h"

#include <stdatomic.h>
#include <string.h>

// Spaces whose concurrent use debug builds detect (more are simply not checked).
#define KCC_MAX_WATCHED_SPACES 64

struct kcc_space_watch
{
	const cpSpace* space; ///< NULL: a free entry
	int controllers;      ///< live controllers on this space
	atomic_int users;     ///< calls using the space right now
};

static atomic_flag s_lock = ATOMIC_FLAG_INIT;
static const kcc_controller** s_table; // open addressing; NULL free, s_tombstone removed
static int s_capacity;
static int s_used;    // live entries plus tombstones
static int s_live;
static kcc_space_watch s_spaces[KCC_MAX_WATCHED_SPACES];
static const kcc_controller s_tombstone_object;
static const kcc_controller* const s_tombstone = &s_tombstone_object;

static void kcc_lock( void )
{
	while ( atomic_flag_test_and_set_explicit( &s_lock, memory_order_acquire ) )
	{
	}
}

static void kcc_unlock( void )
{
	atomic_flag_clear_explicit( &s_lock, memory_order_release );
}

static uint32_t kcc_hash( const kcc_controller* c )
{
	uint64_t x = (uint64_t)(uintptr_t)c;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return (uint32_t)x;
}

// The slot holding c, or -1.
static int kcc_find( const kcc_controller* c )
{
	if ( s_capacity == 0 || c == NULL || c == s_tombstone )
	{
		return -1; // NULL and the tombstone mark empty slots: they are never controllers
	}
	uint32_t mask = (uint32_t)s_capacity - 1u;
	for ( uint32_t i = kcc_hash( c ) & mask, n = 0; n < (uint32_t)s_capacity; i = ( i + 1u ) & mask, ++n )
	{
		if ( s_table[i] == c )
		{
			return (int)i;
		}
		if ( s_table[i] == NULL )
		{
			return -1;
		}
	}
	return -1;
}

static void kcc_place( const kcc_controller** table, int capacity, const kcc_controller* c )
{
	uint32_t mask = (uint32_t)capacity - 1u;
	uint32_t i = kcc_hash( c ) & mask;
	while ( table[i] != NULL && table[i] != s_tombstone )
	{
		i = ( i + 1u ) & mask;
	}
	table[i] = c;
}

// Rebuilds the table with room for one more (dropping tombstones). False when memory ran out.
static bool kcc_make_room( void )
{
	if ( ( s_used + 1 ) * 2 <= s_capacity )
	{
		return true;
	}
	int capacity = s_capacity > 0 ? s_capacity : 16;
	while ( ( s_live + 1 ) * 2 > capacity )
	{
		capacity *= 2;
	}
	const kcc_controller** table = kcc_alloc( (size_t)capacity * sizeof( *table ) );
	if ( table == NULL )
	{
		return false;
	}
	memset( table, 0, (size_t)capacity * sizeof( *table ) );
	for ( int i = 0; i < s_capacity; ++i )
	{
		if ( s_table[i] != NULL && s_table[i] != s_tombstone )
		{
			kcc_place( table, capacity, s_table[i] );
		}
	}
	kcc_free( (void*)s_table );
	s_table = table;
	s_capacity = capacity;
	s_used = s_live;
	return true;
}

static kcc_space_watch* kcc_watch_space( const cpSpace* space )
{
	kcc_space_watch* free_entry = NULL;
	for ( int i = 0; i < KCC_MAX_WATCHED_SPACES; ++i )
	{
		if ( s_spaces[i].space == space )
		{
			s_spaces[i].controllers += 1;
			return s_spaces + i;
		}
		if ( s_spaces[i].space == NULL && free_entry == NULL )
		{
			free_entry = s_spaces + i;
		}
	}
	if ( free_entry != NULL )
	{
		free_entry->space = space;
		free_entry->controllers = 1;
		atomic_store( &free_entry->users, 0 );
	}
	return free_entry;
}

bool kcc_registry_add( kcc_controller* c )
{
	kcc_lock();
	bool added = kcc_make_room();
	if ( added )
	{
		kcc_place( s_table, s_capacity, c );
		s_used += 1;
		s_live += 1;
		c->watch = kcc_watch_space( c->space );
	}
	kcc_unlock();
	return added;
}

bool kcc_registry_remove( kcc_controller* c )
{
	kcc_lock();
	int slot = kcc_find( c );
	if ( slot >= 0 )
	{
		s_table[slot] = s_tombstone;
		s_live -= 1;
		if ( c->watch != NULL && --c->watch->controllers == 0 )
		{
			c->watch->space = NULL;
		}
		if ( s_live == 0 )
		{
			kcc_free( (void*)s_table );
			s_table = NULL;
			s_capacity = 0;
			s_used = 0;
		}
	}
	kcc_unlock();
	return slot >= 0;
}

bool kcc_registry_contains( const kcc_controller* c )
{
	kcc_lock();
	bool live = kcc_find( c ) >= 0;
	kcc_unlock();
	return live;
}

bool kcc_space_enter( kcc_space_watch* watch )
{
	return watch == NULL || atomic_fetch_add( &watch->users, 1 ) == 0;
}

void kcc_space_leave( kcc_space_watch* watch )
{
	if ( watch != NULL )
	{
		atomic_fetch_sub( &watch->users, 1 );
	}
}
