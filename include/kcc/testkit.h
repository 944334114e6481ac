// SPDX-License-Identifier: MIT
// kcc2d test kit: headless movement tests for games, in a few lines. Load a Tiled level, put a character at a
// named spawn point, drive it with an input script (or inputs frame by frame), then ask where it is, what it
// stands on (by Tiled name), which zones it entered and left, and what every frame looked like. The character
// model (platformer or top-down, the numbers a platformer starts from) is the one tools/kcc_run uses.
// See docs/testkit.md.
//
//   kcc_testkit* t = kcc_testkit_create_from_file( "levels/intro.tmj", "start", NULL, &error );
//   kcc_testkit_run_script( t, "run right 2\njump\nrun right 1\nwait 1", NULL, &error );
//   assert( kcc_testkit_on_floor( t ) && strcmp( kcc_testkit_get_floor_name( t ), "platform 3" ) == 0 );
//   kcc_testkit_destroy( t );
#pragma once

#include "kcc/level.h"

#ifdef __cplusplus
extern "C" {
#endif

// ---------------------------------------------------------------------------------------------------------------
// The character model: one step per frame on a controller, from an input.

typedef enum kcc_character_mode
{
	KCC_CHARACTER_PLATFORMER = 0, ///< gravity, walk left / right, jump from the floor, drop through one-way floors
	KCC_CHARACTER_TOP_DOWN = 1,   ///< no gravity, walk in any direction (the controller in FLOATING mode)
} kcc_character_mode;

/// Must be initialised with kcc_default_character_def().
typedef struct kcc_character_def
{
	kcc_controller_def controller; ///< shape, skin, slopes ... Default: the default capsule (1.2 tall), step_height
								   ///< 0.3, snap_distance 0.2. Its mode follows mode; its position is set by create
	kcc_character_mode mode;       ///< Default KCC_CHARACTER_PLATFORMER
	float gravity;                 ///< world units / s^2, platformer. Default 30
	float walk_speed;              ///< world units / s. Default 6
	float jump_speed;              ///< world units / s, platformer. Default 13
	kcc_shape crouch_shape;        ///< the shape while crouching, around the same position: keep the standing shape's
								   ///< lowest point. Default: the default capsule's lower half, a circle of radius 0.3
								   ///< at (0, -0.3) (0.6 tall)
	float crouch_speed;            ///< world units / s while crouching. Default 3
	int internal_cookie;           ///< set by kcc_default_character_def; do not touch
} kcc_character_def;

/// One frame's input.
typedef struct kcc_input
{
	vec2s move; ///< wanted direction, each component in [-1, 1] (longer vectors are shortened to length 1);
				///< the platformer uses move.x only
	bool jump;  ///< pressed this frame: a platformer on the floor jumps
	bool drop;  ///< pressed this frame: drop through the one-way floor under the character
	bool crouch; ///< held: crouch (kcc_controller_set_shape to crouch_shape); released, stand up when there is room
} kcc_input;

typedef struct kcc_character kcc_character; ///< opaque

KCC_API kcc_character_def kcc_default_character_def( void );

/// Creates the character's controller in space at position. NULL on a bad def (see kcc_controller_def_problem).
KCC_API kcc_character* kcc_character_create( cpSpace* space, const kcc_character_def* def, vec2s position );
KCC_API void kcc_character_destroy( kcc_character* character ); ///< NULL is a no-op

/// One frame: velocity from the input (walk speed, gravity, jump), then kcc_controller_move_and_slide. out is
/// optional. Returns the controller's status (an error changes nothing).
KCC_API kcc_status kcc_character_step( kcc_character* character, kcc_input input, float dt, kcc_move_result* out );

/// The velocity after the last step (blocked parts removed by the controller).
KCC_API vec2s kcc_character_get_velocity( const kcc_character* character );
/// Whether it has its crouch shape (it stays crouched, crouch released, until standing up fits).
KCC_API bool kcc_character_is_crouching( const kcc_character* character );
/// Teleports and stops the character.
KCC_API kcc_status kcc_character_set_position( kcc_character* character, vec2s position );
KCC_API kcc_controller* kcc_character_get_controller( const kcc_character* character );
KCC_API const kcc_character_def* kcc_character_get_def( const kcc_character* character );

// ---------------------------------------------------------------------------------------------------------------
// The test kit: a space, a level, a character, and the record of every frame.

/// Frames a test kit records between resets, and the most one script runs (an hour at 60 frames per second, about
/// 12 MB of records): a step past it returns KCC_ERROR_TOO_LARGE, and a run or a script that would pass it runs
/// nothing.
#define KCC_TESTKIT_MAX_FRAMES 216000

/// Longest frame a test kit steps, in seconds: kcc_testkit_def.dt must be in (0, KCC_TESTKIT_MAX_DT].
#define KCC_TESTKIT_MAX_DT 1.0f

typedef enum kcc_testkit_event_type
{
	KCC_EVENT_ZONE_BEGIN = 0,     ///< the character started overlapping a zone (name: the zone)
	KCC_EVENT_ZONE_END = 1,       ///< it stopped overlapping a zone (name: the zone)
	KCC_EVENT_LAND = 2,           ///< on the floor after a frame in the air (name: what it landed on)
	KCC_EVENT_LEAVE_FLOOR = 3,    ///< in the air after a frame on the floor (name: what it left)
	KCC_EVENT_LEAVE_PLATFORM = 4, ///< no longer standing on a moving platform it stood on (name: the platform)
	KCC_EVENT_JUMP = 5,           ///< a jump started (name: what it jumped from)
} kcc_testkit_event_type;

typedef struct kcc_testkit_event
{
	int frame;                   ///< the frame it happened in (1 is the first step)
	kcc_testkit_event_type type;
	const char* name;            ///< Tiled name (object, or layer for tiles); "" when the shape has none
} kcc_testkit_event;

/// The state after one step.
typedef struct kcc_testkit_frame
{
	int frame;           ///< 1, 2, ...
	double time;         ///< seconds since the start: frame * dt
	vec2s position;
	vec2s velocity;      ///< after the step (blocked parts removed)
	uint32_t flags;      ///< the move's KCC_ON_FLOOR | KCC_ON_WALL | ...
	bool crouching;      ///< with its crouch shape
	const char* floor;   ///< Tiled name of the floor when KCC_ON_FLOOR, else NULL
	int first_event, event_count; ///< its events in kcc_testkit_get_events
} kcc_testkit_frame;

/// Must be initialised with kcc_default_testkit_def().
typedef struct kcc_testkit_def
{
	const char* map_path;    ///< the Tiled map file; or NULL and map_json
	const char* map_json;    ///< a map in memory (map_path NULL); map_name names it in messages
	size_t map_size;
	const char* map_name;
	kcc_level_def level;     ///< Default kcc_default_level_def()
	kcc_character_def character; ///< Default kcc_default_character_def(), one_way_categories and
								 ///< pushable_categories set from level's categories by create
	const char* spawn;       ///< where the character starts: an object's name ("NAME[2]": the second of that name),
							 ///< "@X,Y" (a point, world units), or NULL: the first spawn (docs/testkit.md)
	const char* rules;       ///< more level rules as text, one a line ("class=jumpthrough: one_way"), tried after
							 ///< level.rules; NULL: none. The kit keeps copies of the map, the rules and the level
							 ///< def's strings (a script's rule lines load the level again); level.read_file and
							 ///< read_user must stay valid while the kit lives
	float dt;                ///< seconds per frame. Default 1 / 60
	int internal_cookie;     ///< set by kcc_default_testkit_def; do not touch
} kcc_testkit_def;

typedef struct kcc_testkit kcc_testkit; ///< opaque

/// What went wrong in kcc_testkit_create or a script: a message naming the file and line or object.
typedef kcc_level_error kcc_testkit_error;

KCC_API kcc_testkit_def kcc_default_testkit_def( void );

/// Loads the level into a new space and creates the character at the spawn. NULL on error (error says why).
KCC_API kcc_testkit* kcc_testkit_create( const kcc_testkit_def* def, kcc_testkit_error* error );
/// The short form: a map file, a spawn name (NULL: the first spawn) and a character def (NULL: the defaults).
KCC_API kcc_testkit* kcc_testkit_create_from_file( const char* map_path, const char* spawn,
												   const kcc_character_def* character, kcc_testkit_error* error );
KCC_API void kcc_testkit_destroy( kcc_testkit* t ); ///< NULL is a no-op

/// One frame: the level's platforms move (kcc_level_step), then the character steps; the frame is recorded.
/// KCC_ERROR_TOO_LARGE when the record holds KCC_TESTKIT_MAX_FRAMES frames already (kcc_testkit_reset clears it).
KCC_API kcc_status kcc_testkit_step( kcc_testkit* t, kcc_input input );
/// frames steps with the same input (jump and drop are pressed on the first only; crouch is held). frames >= 0
/// (KCC_ERROR_INVALID_ARGUMENT otherwise); KCC_ERROR_TOO_LARGE, and no step, when the record has no room for them.
KCC_API kcc_status kcc_testkit_run( kcc_testkit* t, kcc_input input, int frames );

/// Runs an input script (docs/testkit.md): the whole text is checked first, and an error (naming name, or
/// "script", and the line) runs nothing, as does a script longer than the room left in the record. Returns false on
/// an error.
KCC_API bool kcc_testkit_run_script( kcc_testkit* t, const char* script, const char* name, kcc_testkit_error* error );

/// Puts the character at a spawn (by name; NULL: the first spawn), stopped. False when there is no such spawn.
KCC_API bool kcc_testkit_spawn( kcc_testkit* t, const char* spawn );
/// Back to the start: the level reset, the character at its spawn, the records cleared.
KCC_API void kcc_testkit_reset( kcc_testkit* t );

// Where it is now.
KCC_API vec2s kcc_testkit_get_position( const kcc_testkit* t );
KCC_API vec2s kcc_testkit_get_velocity( const kcc_testkit* t );
KCC_API uint32_t kcc_testkit_get_flags( const kcc_testkit* t ); ///< the last step's flags
KCC_API bool kcc_testkit_on_floor( const kcc_testkit* t );
/// Tiled name of what it stands on (the object's name, or the layer's name for tiles); NULL in the air.
KCC_API const char* kcc_testkit_get_floor_name( const kcc_testkit* t );
/// The level object it stands on; NULL in the air or on tiles.
KCC_API const kcc_level_object* kcc_testkit_get_floor_object( const kcc_testkit* t );
/// Whether it overlaps the named zone now.
KCC_API bool kcc_testkit_in_zone( const kcc_testkit* t, const char* zone );

// What happened.
/// Every flag any step reported, OR-ed: KCC_DEPENETRATED or KCC_CRUSHED here means it overlapped something.
KCC_API uint32_t kcc_testkit_flags_seen( const kcc_testkit* t );
/// Events of a type with a name (NULL: any name).
KCC_API int kcc_testkit_count_events( const kcc_testkit* t, kcc_testkit_event_type type, const char* name );
/// The first such event, or NULL.
KCC_API const kcc_testkit_event* kcc_testkit_find_event( const kcc_testkit* t, kcc_testkit_event_type type,
														 const char* name );
KCC_API int kcc_testkit_event_count( const kcc_testkit* t );
KCC_API const kcc_testkit_event* kcc_testkit_get_events( const kcc_testkit* t );
KCC_API int kcc_testkit_frame_count( const kcc_testkit* t );
KCC_API const kcc_testkit_frame* kcc_testkit_get_frames( const kcc_testkit* t ); ///< valid until the next step
KCC_API const char* kcc_testkit_event_name( kcc_testkit_event_type type ); ///< "zone_begin", "land", ...

// The parts, for anything else a test wants to look at or change.
KCC_API kcc_level* kcc_testkit_get_level( const kcc_testkit* t );
KCC_API kcc_character* kcc_testkit_get_character( const kcc_testkit* t );
KCC_API cpSpace* kcc_testkit_get_space( const kcc_testkit* t );
KCC_API float kcc_testkit_get_dt( const kcc_testkit* t );

#ifdef __cplusplus
}
#endif
