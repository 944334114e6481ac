// SPDX-License-Identifier: MIT
// The scripted tour: the player driven through every feature of the demo level (tiles, slopes, stairs, a conveyor
// belt, bumps, mud, crates, ferry, lift, one-way ledges, swing, ceiling, crouch tunnel, the three attacks, riding an
// enemy, the top-down room), the frames worth a picture named on the way, and a summary that says whether it all
// worked.
#pragma once

#include "game.h"

typedef struct demo_tour
{
	int step;             ///< index of the current step
	int frames_in_step;
	int direction;        ///< walk steps: the side the target was on when the step began
	bool crouch;          ///< held from one step to the next
	bool left_floor;      ///< jump and drop steps: the player has been in the air
	bool done;
	bool failed;
	char failure[160];
	const char* caption;  ///< what the current part of the tour shows
	const char* snapshot; ///< set by demo_tour_input when this frame (before its step) is worth a picture
	int snapshot_count;
	bool trace;           ///< print each step as it ends
} demo_tour;

void demo_tour_start( demo_tour* t );
/// The input for the next step of the game. Advances the script; sets t->snapshot on the frames to save and
/// t->done at the end (t->failed when a step did not complete in its time).
demo_input demo_tour_input( demo_tour* t, const demo_game* g );
/// Prints the features visited, zone events, stuck frames and overlaps; true when everything passed.
bool demo_tour_summary( const demo_tour* t, const demo_game* g, double seconds );
