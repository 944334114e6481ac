// SPDX-License-Identifier: MIT
// The gauntlet's motion rule (SCENE.md) in plain C (no kcc2d, Chipmunk or Box2D types), the same in every driver:
// each character walks at a speed it picks again every 30 steps, jumps when it picked a jump and stands on the
// ground, and falls under gravity. Each character's own state, nothing shared, so the order of the moves does not
// change it.
#pragma once

#include "gauntlet_level.h"
#include "prng.h"

#include <stdbool.h>
#include <stdint.h>

#define GAUNTLET_SEED 2024u
#define GAUNTLET_DT ( 1.0f / 60.0f )
#define GAUNTLET_GRAVITY 30.0f
#define GAUNTLET_MAX_SPEED 6.0f
#define GAUNTLET_JUMP_SPEED 10.0f

// What a character last chose: its walking speed and whether it wants to jump.
typedef struct gauntlet_walker
{
	float vx_desired;
	bool want_jump;
} gauntlet_walker;

// The velocity character i asks for in this step, from the velocity its last move returned and whether that move
// left it on the ground.
static inline gauntlet_vec2 gauntlet_walker_velocity( gauntlet_walker* w, int i, int step, gauntlet_vec2 last,
													  bool on_ground )
{
	if ( ( step + i ) % 30 == 0 || step == 0 )
	{
		uint32_t h = hash3( GAUNTLET_SEED, (uint32_t)i, (uint32_t)( ( step + i ) / 30 ) );
		w->vx_desired = ( (float)( h & 0xFFFFu ) / 65535.0f * 2.0f - 1.0f ) * GAUNTLET_MAX_SPEED;
		w->want_jump = ( ( h >> 16 ) & 3u ) == 0;
	}
	gauntlet_vec2 v = { w->vx_desired, last.y };
	if ( on_ground && w->want_jump )
	{
		v.y = GAUNTLET_JUMP_SPEED;
		w->want_jump = false;
	}
	v.y -= GAUNTLET_GRAVITY * GAUNTLET_DT;
	return v;
}
