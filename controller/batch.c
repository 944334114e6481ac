// SPDX-License-Identifier: MIT
// kcc_move_and_slide_batch: many characters of one space in one call.
#include "internal.h"

#include <stddef.h>

kcc_status kcc_move_and_slide_batch( kcc_controller* const* controllers, int count, const vec2s* velocities,
									 float dt, vec2s* out_velocities, kcc_move_result* out_results,
									 const kcc_task_system* tasks )
{
	(void)tasks;
	if ( count < 0 )
	{
		KCC_ASSERT( false, "kcc_move_and_slide_batch: count is negative" );
		return KCC_ERROR_INVALID_ARGUMENT;
	}
	if ( count == 0 )
	{
		return KCC_OK;
	}
	if ( controllers == NULL || velocities == NULL )
	{
		KCC_ASSERT( false, "kcc_move_and_slide_batch: controllers or velocities is NULL" );
		return KCC_ERROR_NULL_ARGUMENT;
	}
	if ( kcc_is_valid_float( dt ) == false )
	{
		return KCC_ERROR_NOT_FINITE;
	}
	if ( dt < 0.0f )
	{
		return KCC_ERROR_INVALID_ARGUMENT;
	}
	// Every input checked before anything moves.
	for ( int i = 0; i < count; ++i )
	{
		if ( KCC_USABLE( controllers[i], "kcc_move_and_slide_batch" ) == false )
		{
			return KCC_ERROR_NULL_ARGUMENT;
		}
		if ( controllers[i]->space != controllers[0]->space )
		{
			KCC_ASSERT( false, "kcc_move_and_slide_batch: the characters are in different spaces" );
			return KCC_ERROR_INVALID_ARGUMENT;
		}
		if ( kcc_is_valid_vec2( velocities[i] ) == false )
		{
			return KCC_ERROR_NOT_FINITE;
		}
		if ( kcc_is_valid_vec2( glms_vec2_scale( velocities[i], dt ) ) == false )
		{
			return KCC_ERROR_TOO_LARGE;
		}
	}
	if ( cpSpaceIsLocked( controllers[0]->space ) )
	{
		KCC_ASSERT( false, "kcc_move_and_slide_batch: the space is locked (called from a Chipmunk callback?)" );
		return KCC_ERROR_SPACE_LOCKED;
	}
	for ( int i = 0; i < count; ++i )
	{
		kcc_status status = kcc_controller_move_and_slide( controllers[i], velocities[i], dt,
														   out_velocities != NULL ? out_velocities + i : NULL,
														   out_results != NULL ? out_results + i : NULL );
		if ( status != KCC_OK )
		{
			return status;
		}
	}
	return KCC_OK;
}
