// SPDX-License-Identifier: MIT
// Fuzz target for the controller (libFuzzer with clang; tests/fuzz_driver.c feeds it with GCC). The input's bytes are
// the soak's randomness (tests/soak_world.h): they build a small world (static shapes of every kind, slopes, creases,
// one-way platforms, sensors, kinematic platforms, pushable crates and dynamic boxes) with one or two characters of
// any kind and option, then drive frames of actions: moves of every length, move_and_slide with gravity and jumps,
// set_position, get_state and set_state (corrupted ones too), drop_through, invalid calls, odd defs
// (kcc_controller_create must refuse exactly the defs kcc_controller_def_problem names), destroy and re-create. After
// every move the soak's oracle checks the character and the crates it pushed, and one move in twenty is replayed from
// its state (bit-identical). A move ending inside a solid by more than 1e-3 of its height without KCC_CRUSHED, a crate
// pushed deeper into a solid, a replay that differs, a NaN, an error on valid input, a change on invalid input or an
// assert aborts, after printing the failure and a reproduction.
#include "soak_world.h"

#include <stdio.h>
#include <stdlib.h>

/// The libFuzzer entry point (also called by fuzz_driver.c).
int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size );

static void run( const uint8_t* data, size_t size, const soak_run_config* config, soak_stats* stats )
{
	soak_source src = soak_source_bytes( data, size );
	soak_world* w = soak_world_create( &src, &config->world );
	soak_world_run( w, &src, config->frames_per_world, config, stats );
	soak_world_destroy( w );
}

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size )
{
	soak_hook_asserts();
	soak_run_config config = { 0 };
	config.moves = UINT64_MAX; // until the input runs out
	config.frames_per_world = 64;
	config.world.features = 6;
	config.world.platforms = 2;
	config.world.characters = 2;
	config.world.half_size = 4.0;
	config.world.odd_inputs = true;
	config.world.crates = 4;
	config.only_world = -1;
	static soak_stats stats;
	stats = (soak_stats){ 0 };
	run( data, size, &config, &stats );
	if ( stats.overlaps + stats.nan + stats.wrong_status + stats.moved_on_error + stats.shape_overlaps +
			 stats.crate_overlaps + stats.replay_mismatches + stats.path_mismatches ==
		 0 )
	{
		return 0;
	}
	// The same input again, telling what failed, with a shrunk reproduction of the first overlap.
	config.log = stderr;
	config.print_failures = 1;
	config.shrink = true;
	stats = (soak_stats){ 0 };
	run( data, size, &config, &stats );
	soak_stats_print( stderr, &stats );
	abort();
}
