// SPDX-License-Identifier: MIT
// kcc_move_context: the scratch a move works in, owned by whoever runs the move (a space, a batch worker).
#include "internal.h"

#include <string.h>

bool kcc_move_context_reserve( kcc_move_context* ctx, int capacity )
{
	if ( capacity <= ctx->capacity )
	{
		return true;
	}
	// Grown before a move starts, never during one: nothing in it outlives a move, so nothing is copied.
	kcc_candidate* candidates = kcc_alloc( (size_t)capacity * sizeof( kcc_candidate ) );
	if ( candidates == NULL )
	{
		return false;
	}
	kcc_free( ctx->candidates );
	ctx->candidates = candidates;
	ctx->capacity = capacity;
	return true;
}

void kcc_move_context_free( kcc_move_context* ctx )
{
	kcc_free( ctx->candidates );
	memset( ctx, 0, sizeof( *ctx ) );
}
