// SPDX-License-Identifier: MIT
// The common variables a doc fragment may use without declaring them: the game's world, a velocity and the input.
// File-scope statics (each block is its own program); a fragment's own declarations shadow them, and a page's
// shared file-scope blocks come before them: their names must differ (the recipes' `player` is a type).
#pragma once

static cpSpace* space;                       // the world
static kcc_level* level;                     // a Tiled level loaded into it
static kcc_level_error error;                // what a failed load says
static const char* path = "levels/run.tmj";  // a map file
static kcc_controller_def def;               // a controller def being filled in
static kcc_move_result result;               // the last move's result
static float dt = 1.0f / 60.0f;              // the fixed step
static vec2s velocity;                       // the player's velocity, kept from frame to frame

static float input_x;                        // the stick or the arrow keys, -1 .. 1
static vec2s input_direction;                // top-down: the direction held, of length at most 1
static bool jump;                            // jump is held
static bool jump_pressed, down_pressed;      // pressed this frame (an edge: true for one frame per press)
static bool crouch_pressed, crouch_released; // crouch went down / up this frame
