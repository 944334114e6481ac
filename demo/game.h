// SPDX-License-Identifier: MIT
// The demo's game: a Tiled level (demo/levels/demo.tmj) in a cpSpace, a player moved by kcc2d (platformer, or
// top-down in the room), patrolling enemies, a swinging platform, zones, and the seeds' attacks as hit tests (a fan
// aimed with atan2, a dash capsule, a 2.5D ground slam), all against enemies through kcc_batch_overlap_circles.
// No SDL here: the window, the tour and the pictures drive it with demo_input and read it to draw.
#pragma once

#include "kcc/debug_draw.h"
#include "kcc/level.h"

#define DEMO_PI 3.14159265358979323846f
#define DEMO_DEGREES ( DEMO_PI / 180.0f ) ///< one degree in radians
#define DEMO_DT ( 1.0f / 60.0f )
#define DEMO_GRAVITY 30.0f
#define DEMO_WALK_SPEED 6.0f
#define DEMO_RUN_SPEED 9.0f
#define DEMO_JUMP_SPEED 13.0f
#define DEMO_MAX_FLOOR_ANGLE ( 50.0f * DEMO_DEGREES ) ///< 45 degree slopes walkable with room to spare, 60 not
#define DEMO_MAX_ENEMIES 16
#define DEMO_LOG_SIZE 6

// Filter categories: the level's four (kcc_default_level_def) plus one for characters, which block each other.
#define DEMO_CHARACTER_CATEGORY ( 1u << 4 )

typedef enum demo_shape_kind
{
	DEMO_CIRCLE = 0,
	DEMO_CAPSULE = 1,
	DEMO_BOX = 2,
	DEMO_SHAPE_COUNT
} demo_shape_kind;

/// One frame's input: from the keyboard and mouse, or from the tour's script.
typedef struct demo_input
{
	vec2s move;  ///< each in [-1, 1]; platformer: x walks, y < 0 crouches; top-down: both
	bool run;    ///< held
	bool jump;   ///< pressed this frame (with move.y < 0 on a one-way floor: drop through)
	bool fan;    ///< pressed: fan attack toward aim
	bool dash;   ///< pressed: dash toward aim
	bool slam;   ///< pressed: ground slam (in the air: dive first)
	vec2s aim;   ///< world point the attacks aim at
	int shape;   ///< -1 keep, else a demo_shape_kind to switch to
} demo_input;

typedef enum demo_enemy_kind
{
	DEMO_WALKER = 0, ///< patrols a range on the ground (a GROUNDED controller): can be stood on
	DEMO_SLIME = 1,  ///< wanders in the top-down room (a FLOATING controller)
	DEMO_BAT = 2,    ///< flies in circles at a height (no controller: only the hit tests see it)
} demo_enemy_kind;

typedef struct demo_enemy
{
	const char* name;
	demo_enemy_kind kind;
	kcc_controller* controller; ///< NULL for bats
	kcc_shape shape;            ///< local, around the position
	vec2s position;             ///< bats: where they are; others: the controller's position after the last step
	vec2s velocity;
	float min_x, max_x;         ///< walker: patrol range of its position
	vec2s orbit_center;         ///< bat
	float orbit_radius, phase;  ///< bat
	float z_min, z_max;         ///< height interval for the 2.5D slam
	int flash;                  ///< frames left flashing after a hit
	kcc_move_result result;     ///< last move (for the debug overlay)
	vec2s wanted;               ///< its last wanted displacement
} demo_enemy;

typedef enum demo_attack_kind
{
	DEMO_ATTACK_NONE = 0,
	DEMO_ATTACK_FAN,
	DEMO_ATTACK_DASH,
	DEMO_ATTACK_SLAM,
} demo_attack_kind;

/// The attack being shown (and, for the dash, still hitting).
typedef struct demo_attack
{
	demo_attack_kind kind;
	int timer;           ///< frames left on screen
	kcc_shape shape;     ///< fan: the sector; dash: the capsule swept so far; slam: the volume's ground shape
	kcc_volume volume;   ///< slam
	float angle;         ///< fan: atan2 of the aim
	bool hit[DEMO_MAX_ENEMIES];
	int hit_count;
	int missed_by_height; ///< slam: enemies inside the ground shape but above the volume
} demo_attack;

/// What the demo shows and the tour checks, measured from the moves' results.
typedef enum demo_feature
{
	FEATURE_TILES = 0,
	FEATURE_SLOPE_30,
	FEATURE_SLOPE_45,
	FEATURE_SLOPE_60,
	FEATURE_STAIRS,
	FEATURE_BELT,
	FEATURE_WALL,
	FEATURE_CEILING,
	FEATURE_CHECKPOINT,
	FEATURE_SPEED_BUMPS,
	FEATURE_SLOW_ZONE,
	FEATURE_CRATES,
	FEATURE_MOVING_PLATFORM,
	FEATURE_LIFT,
	FEATURE_ONE_WAY_LAND,
	FEATURE_DROP_THROUGH,
	FEATURE_ONE_WAY_FROM_BELOW,
	FEATURE_SWING,
	FEATURE_CROUCH_BLOCKED,
	FEATURE_TUNNEL,
	FEATURE_FAN,
	FEATURE_DASH,
	FEATURE_SLAM,
	FEATURE_STAND_ON_ENEMY,
	FEATURE_TOP_DOWN,
	FEATURE_SHAPES,
	FEATURE_COUNT
} demo_feature;

typedef struct demo_stats
{
	bool visited[FEATURE_COUNT];
	int frames;
	int seams_crossed;         ///< tile seams walked over on the floor
	int seam_snags;            ///< contacts with a tile's side at floor level (never expected)
	int steps_climbed;
	int belt_frames;           ///< frames carried by a belt while standing still
	float belt_travel;         ///< how far those frames carried the player
	float belt_speed;          ///< kcc_controller_get_platform_velocity's x on the last of them
	int zone_begins, zone_ends;
	int bump_begins;           ///< speed bump zones entered (3 bumps)
	int pushed_frames;
	float crate_travel;        ///< farthest a crate got from where the map put it
	int ferry_frames, lift_frames, swing_frames, enemy_ride_frames;
	float swing_angle_seen;    ///< widest change of the swing's angle while ridden, radians
	float top_down_travel;
	bool top_down_wall;
	bool below_one_way;        ///< was inside a one-way shape going up (jumping through it)
	int drop_throughs;
	int blocked_stand_ups;
	int fan_hits, dash_hits, slam_hits, slam_height_misses;
	bool shape_used[DEMO_SHAPE_COUNT];
	int stuck_frames;          ///< any character: wanted to move, did not, nothing blocking (never expected)
	int overlap_frames;        ///< any character overlapping a solid by more than 1e-3 (never expected)
	int crushed_frames;
	float worst_overlap;
} demo_stats;

typedef struct demo_player
{
	kcc_controller* controller;
	demo_shape_kind shape_kind;
	bool crouched;
	bool top_down;
	vec2s velocity;
	kcc_move_result result;
	vec2s wanted;           ///< the last move's wanted displacement (velocity * dt)
	float facing;           ///< +1 right, -1 left
	int coyote;             ///< frames since the floor was left (a late jump still counts)
	int dash_frames;
	vec2s dash_velocity;
	vec2s dash_start;
	bool diving;            ///< slam pressed in the air: falls fast and slams on landing
	int cooldown;           ///< frames before the next attack
	vec2s respawn;
	float speed_scale;      ///< from the zones it is in (slow zones, speed bumps)
	bool blocked_stand;     ///< wants to stand and the last try was KCC_ERROR_BLOCKED
	int drop_timer;         ///< frames since a drop-through (to measure it)
	float drop_top;         ///< top of the one-way shape dropped through
	const char* teleport;   ///< spawn name to go to after this frame's move (a door), or NULL
} demo_player;

/// A level shape as the checks see it: its geometry when the cache was made, and its body's pose then.
typedef struct demo_world_shape
{
	const cpShape* shape;
	kcc_shape world;
	kcc_aabb bounds; ///< of world, when the cache was made (for shapes that do not move: where they are)
	cpVect position;
	double angle;
	bool moves;  ///< on a kinematic body: follows the body's motion since the cache was made
	bool solid;  ///< blocks characters (not a sensor, not one-way)
	bool one_way;
} demo_world_shape;

#define DEMO_MAX_CRATES 8

/// What the checks keep from frame to frame.
typedef struct demo_checks
{
	demo_world_shape* shapes; ///< the level's shapes (characters excluded), allocated by demo_checks_init
	int shape_count;
	cpBody* crates[DEMO_MAX_CRATES];
	cpVect crate_starts[DEMO_MAX_CRATES];
	int crate_count;
	kcc_aabb tunnel;          ///< the crouch tunnel's roof
	bool in_tunnel;           ///< the player was under it
	float swing_min, swing_max; ///< the swing's angles seen while the player rode it
} demo_checks;

typedef struct demo_game
{
	cpSpace* space;
	kcc_level* level;
	kcc_level_def level_def;
	vec2s size;
	demo_player player;
	demo_enemy enemies[DEMO_MAX_ENEMIES];
	int enemy_count;
	cpBody* swing_body;
	cpShape* swing_shape;
	float swing_amplitude, swing_period;
	kcc_aabb room;          ///< the top-down room
	demo_attack attack;
	int frame;
	char log[DEMO_LOG_SIZE][80]; ///< the latest events, newest last
	int log_count;
	char message[96];       ///< a notice shown for a while ("can't stand up here")
	int message_timer;
	demo_stats stats;
	demo_checks checks;
} demo_game;

/// Loads the map and creates the characters. False (and a message on stderr) when the map does not load.
bool demo_game_init( demo_game* g, const char* map_path );
void demo_game_shutdown( demo_game* g );
/// One fixed step of DEMO_DT: platforms, swing, enemies, player, attacks, the checks.
void demo_game_step( demo_game* g, const demo_input* in );
/// Back to the last checkpoint (or the start), as a platformer.
void demo_game_respawn( demo_game* g );

/// The player's shape in the world (its controller's shape at its position).
kcc_shape demo_player_shape( const demo_game* g );
vec2s demo_player_position( const demo_game* g );
/// Where the attacks start: the middle of the player's shape.
vec2s demo_player_center( const demo_game* g );
kcc_shape demo_enemy_world_shape( const demo_enemy* e );
/// The name of a shape the level made ("ground", "mud" ...), of a character, or NULL.
const char* demo_shape_name( const demo_game* g, const cpShape* shape );
/// The enemy with this name, or NULL.
const demo_enemy* demo_find_enemy( const demo_game* g, const char* name );
/// The checks (checks.c): set up after the level loaded (false when out of memory), then measured every frame after
/// the player's move (previous: its position before).
bool demo_checks_init( demo_game* g );
void demo_checks_measure( demo_game* g, vec2s previous );
/// Name and details of a feature, for the summary.
const char* demo_feature_name( demo_feature f );
void demo_feature_detail( const demo_game* g, demo_feature f, char* out, size_t size );
const char* demo_shape_kind_name( demo_shape_kind k );
