// SPDX-License-Identifier: MIT
// The tour's script and its interpreter. Steps wait for what they need (a platform at the end of its path, an
// enemy in range) instead of counting frames, so the tour follows the level; each has a time limit, and a step
// that runs out fails the tour.
#include "tour.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOUR_STEP_LIMIT 900 // frames (15 s) any one step may take

typedef enum tour_op
{
	OP_CAPTION,    ///< name: what this part shows (instant)
	OP_SNAP,       ///< name: save this frame (instant)
	OP_SHAPE,      ///< x: the shape to switch to (one frame)
	OP_CROUCH,     ///< x: 1 holds crouch from now on, 0 releases it (instant)
	OP_WALK,       ///< walk to x (y = 1: run)
	OP_HOLD,       ///< push along (x, y) for frames
	OP_WAIT,       ///< frames
	OP_UNTIL,      ///< until the predicate holds, pushing along x meanwhile
	OP_JUMP,       ///< jump, steering to x (NAN: straight up), until landed
	OP_JUMP_PRESS, ///< press jump and go on at once
	OP_DROP,       ///< drop through the one-way floor, until landed
	OP_RIDE,       ///< walk onto the platform named name, until standing on it
	OP_NEAR,       ///< until enemy name is within x (walking toward it when y = 1)
	OP_JUMP_ONTO,  ///< jump at enemy name, steering onto it, until landed
	OP_FAN,        ///< fan attack aimed at enemy name
	OP_DASH,       ///< dash aimed at enemy name (lasts frames)
	OP_SLAM,       ///< ground slam (dives first in the air) aimed at enemy name, until it lands
	OP_GOTO,       ///< top-down: walk to (x, y)
} tour_op;

typedef struct tour_step
{
	tour_op op;
	float x, y;
	int frames;
	const char* name;
	bool ( *until )( const demo_game* g );
} tour_step;

// ---------------------------------------------------------------------------------------------------------------
// Predicates on the world

static vec2s platform_offset( const demo_game* g, const char* name )
{
	const kcc_level_platform* p = kcc_level_find_platform( g->level, name );
	if ( p == NULL )
	{
		return kcc_v2( 0.0f, 0.0f );
	}
	cpVect at = cpBodyGetPosition( p->body );
	return kcc_v2( (float)at.x - p->start.x, (float)at.y - p->start.y );
}

static vec2s platform_velocity( const demo_game* g, const char* name )
{
	const kcc_level_platform* p = kcc_level_find_platform( g->level, name );
	return p != NULL ? kcc_level_get_platform_velocity( g->level, p ) : kcc_v2( 0.0f, 0.0f );
}

// Coming back to its start: walking toward it now meets it there (the path has no pause at its ends).
static bool ferry_arriving( const demo_game* g )
{
	return platform_offset( g, "ferry" ).x < 0.4f && platform_velocity( g, "ferry" ).x < 0.0f;
}

static bool ferry_half_way( const demo_game* g )
{
	return platform_offset( g, "ferry" ).x > 4.3f;
}

static bool ferry_arriving_at_end( const demo_game* g )
{
	return platform_offset( g, "ferry" ).x > 8.3f && platform_velocity( g, "ferry" ).x > 0.0f;
}

static bool lift_arriving( const demo_game* g )
{
	return platform_offset( g, "lift" ).y < 0.4f && platform_velocity( g, "lift" ).y < 0.0f;
}

static bool lift_half_way( const demo_game* g )
{
	return platform_offset( g, "lift" ).y > 2.0f;
}

static bool lift_at_top( const demo_game* g )
{
	return platform_offset( g, "lift" ).y > 4.05f;
}

// Carried by the belt, standing still, from where the walk onto it stopped to past its middle.
static bool belt_carried( const demo_game* g )
{
	return demo_player_position( g ).x > 45.3f;
}

static bool on_ceiling( const demo_game* g )
{
	return ( g->player.result.flags & KCC_ON_CEILING ) != 0;
}

static bool on_floor( const demo_game* g )
{
	return ( g->player.result.flags & KCC_ON_FLOOR ) != 0;
}

static bool in_room( const demo_game* g )
{
	return g->player.top_down;
}

// ---------------------------------------------------------------------------------------------------------------
// The script

#define CAPTION( text ) { OP_CAPTION, 0, 0, 0, text, NULL }
#define SNAP( name ) { OP_SNAP, 0, 0, 0, name, NULL }
#define SHAPE( k ) { OP_SHAPE, (float)( k ), 0, 0, NULL, NULL }
#define CROUCH( on ) { OP_CROUCH, (float)( on ), 0, 0, NULL, NULL }
#define WALK( x ) { OP_WALK, x, 0, 0, NULL, NULL }
#define HOLD( x, y, n ) { OP_HOLD, x, y, n, NULL, NULL }
#define WAIT( n ) { OP_WAIT, 0, 0, n, NULL, NULL }
#define UNTIL( f, push ) { OP_UNTIL, push, 0, 0, NULL, f }
#define JUMP( x ) { OP_JUMP, x, 0, 0, NULL, NULL }
#define JUMP_UP { OP_JUMP, NAN, 0, 0, NULL, NULL }
#define JUMP_PRESS { OP_JUMP_PRESS, 0, 0, 0, NULL, NULL }
#define DROP { OP_DROP, 0, 0, 0, NULL, NULL }
#define RIDE( name ) { OP_RIDE, 0, 0, 0, name, NULL }
#define NEAR( name, d, walk ) { OP_NEAR, d, walk, 0, name, NULL }
#define JUMP_ONTO( name ) { OP_JUMP_ONTO, 0, 0, 0, name, NULL }
#define FAN( name ) { OP_FAN, 0, 0, 2, name, NULL }
#define DASH( name ) { OP_DASH, 0, 0, 14, name, NULL }
#define SLAM( name ) { OP_SLAM, 0, 0, 0, name, NULL }
#define GOTO( x, y ) { OP_GOTO, x, y, 0, NULL, NULL }

static const tour_step s_script[] = {
	CAPTION( "tile floor: every tile its own box, seams everywhere, no snag" ),
	WAIT( 20 ),
	SNAP( "start" ),
	WALK( 13.0f ),
	CAPTION( "a checkpoint: a thin zone, entered and left along the path" ),
	WALK( 16.0f ),
	CAPTION( "30 degree slope" ),
	WALK( 18.3f ),
	SNAP( "slope_30" ),
	WALK( 21.3f ),
	CAPTION( "45 degrees down: snapped to the floor" ),
	WALK( 25.8f ),
	CAPTION( "60 degrees: steeper than max_floor_angle, a wall" ),
	HOLD( 1.0f, 0.0f, 40 ),
	SNAP( "slope_60" ),
	JUMP( 29.5f ),
	CAPTION( "stairs as the rounded box: step_height 0.3" ),
	SHAPE( DEMO_BOX ),
	WALK( 33.0f ),
	WALK( 35.4f ),
	SNAP( "stairs" ),
	WALK( 43.6f ),
	CAPTION( "a conveyor belt: standing still, carried at its surface velocity" ),
	UNTIL( belt_carried, 0.0f ),
	SNAP( "belt" ),
	CAPTION( "speed bumps as the circle: zones at half speed" ),
	SHAPE( DEMO_CIRCLE ),
	WALK( 50.5f ),
	SNAP( "speed_bumps" ),
	WALK( 55.0f ),
	CAPTION( "a slow zone" ),
	WALK( 60.0f ),
	SNAP( "slow_zone" ),
	WALK( 65.0f ),
	CAPTION( "pushing crates (pushable_categories) until the wall stops them" ),
	SHAPE( DEMO_CAPSULE ),
	WALK( 72.0f ),
	SNAP( "crates" ),
	WALK( 74.5f ),
	JUMP( 79.5f ),
	CAPTION( "a moving platform" ),
	WALK( 80.7f ),
	UNTIL( ferry_arriving, 0.0f ),
	RIDE( "ferry" ),
	UNTIL( ferry_half_way, 0.0f ),
	SNAP( "ferry" ),
	UNTIL( ferry_arriving_at_end, 0.0f ),
	WALK( 94.5f ),
	CAPTION( "a lift, then a one-way ledge landed on from above" ),
	WALK( 96.7f ),
	UNTIL( lift_arriving, 0.0f ),
	RIDE( "lift" ),
	UNTIL( lift_half_way, 0.0f ),
	SNAP( "lift" ),
	UNTIL( lift_at_top, 0.0f ),
	WALK( 101.5f ),
	UNTIL( on_floor, 0.0f ),
	SNAP( "one_way" ),
	CAPTION( "down + jump: drop through the one-way ledges" ),
	DROP,
	SNAP( "drop_through" ),
	DROP,
	CAPTION( "jump up through a one-way ledge and land on it" ),
	WALK( 102.0f ),
	JUMP_UP,
	SNAP( "jump_through" ),
	CAPTION( "a swinging platform: carried through its rotation" ),
	JUMP( 108.5f ),
	WAIT( 50 ),
	SNAP( "swing" ),
	WAIT( 50 ),
	JUMP( 113.0f ),
	CAPTION( "a low ceiling" ),
	WALK( 116.0f ),
	JUMP_PRESS,
	UNTIL( on_ceiling, 0.0f ),
	SNAP( "ceiling" ),
	UNTIL( on_floor, 0.0f ),
	CAPTION( "crouch tunnel: standing up inside is KCC_ERROR_BLOCKED" ),
	WALK( 121.5f ),
	CROUCH( 1 ),
	WALK( 125.0f ),
	CROUCH( 0 ),
	WAIT( 20 ),
	SNAP( "tunnel" ),
	WALK( 129.3f ),
	CAPTION( "fan attack (a sector) aimed with atan2" ),
	NEAR( "walker A", 2.2f, 0.0f ),
	FAN( "walker A" ),
	SNAP( "fan" ),
	CAPTION( "standing on an enemy: it carries the player" ),
	JUMP_ONTO( "walker A" ),
	WAIT( 30 ),
	SNAP( "ride_enemy" ),
	CAPTION( "dash: a capsule from where it started" ),
	NEAR( "walker B", 3.2f, 0.0f ),
	DASH( "walker B" ),
	SNAP( "dash" ),
	CAPTION( "ground slam: a 2.5D volume" ),
	NEAR( "walker B", 2.0f, 1.0f ),
	JUMP_PRESS,
	WAIT( 16 ),
	SLAM( "walker B" ),
	SNAP( "slam" ),
	CAPTION( "the door to the top-down room" ),
	JUMP( 140.5f ),
	JUMP( 145.0f ),
	UNTIL( in_room, 1.0f ),
	CAPTION( "top-down room: FLOATING mode, every surface a wall" ),
	GOTO( 158.0f, 5.0f ),
	SNAP( "room" ),
	GOTO( 158.0f, 11.5f ),
	CAPTION( "the slam's volume spans z 0..1: bats at z 1.6 pass over it" ),
	NEAR( "bat 1", 2.6f, 0.0f ),
	SLAM( "bat 1" ),
	SNAP( "room_slam" ),
	WAIT( 30 ),
	NEAR( "bat 1", 2.2f, 0.0f ),
	FAN( "bat 1" ),
	SNAP( "room_fan" ),
	HOLD( -1.0f, 0.3f, 70 ),
	CAPTION( "back to the platformer" ),
	GOTO( 152.0f, 17.5f ),
	WAIT( 30 ),
	SNAP( "end" ),
};

#define TOUR_STEP_COUNT ( (int)( sizeof( s_script ) / sizeof( s_script[0] ) ) )

// ---------------------------------------------------------------------------------------------------------------
// The interpreter

void demo_tour_start( demo_tour* t )
{
	memset( t, 0, sizeof( *t ) );
	t->trace = getenv( "KCC_DEMO_TRACE" ) != NULL;
}

static vec2s enemy_center( const demo_game* g, const char* name )
{
	const demo_enemy* e = demo_find_enemy( g, name );
	if ( e == NULL )
	{
		return demo_player_center( g );
	}
	kcc_shape s = demo_enemy_world_shape( e );
	kcc_aabb b = kcc_shape_bounds( &s );
	return kcc_v2( 0.5f * ( b.min.x + b.max.x ), 0.5f * ( b.min.y + b.max.y ) );
}

static float toward( float from, float to, float dead_zone )
{
	float d = to - from;
	return d > dead_zone ? 1.0f : ( d < -dead_zone ? -1.0f : 0.0f );
}

static bool standing_on( const demo_game* g, const cpShape* shape )
{
	return on_floor( g ) && shape != NULL && g->player.result.floor_shape == shape;
}

// Runs the current step: fills in and returns true while it goes on, false when it is over (in) untouched.
static bool run_step( demo_tour* t, const demo_game* g, const tour_step* s, demo_input* in )
{
	vec2s at = demo_player_position( g );
	bool first = t->frames_in_step == 0;
	bool grounded = on_floor( g );
	if ( grounded == false )
	{
		t->left_floor = true;
	}
	switch ( s->op )
	{
		case OP_CAPTION:
			t->caption = s->name;
			return false;
		case OP_SNAP:
			t->snapshot = s->name;
			return false;
		case OP_CROUCH:
			t->crouch = s->x != 0.0f;
			return false;
		case OP_SHAPE:
			in->shape = (int)s->x;
			return first;
		case OP_WALK:
			if ( first )
			{
				t->direction = s->x >= at.x ? 1 : -1;
			}
			if ( ( s->x - at.x ) * (float)t->direction <= 0.05f )
			{
				return false;
			}
			in->move.x = (float)t->direction;
			in->run = s->y != 0.0f;
			return true;
		case OP_HOLD:
			in->move = kcc_v2( s->x, s->y );
			return t->frames_in_step < s->frames;
		case OP_WAIT:
			return t->frames_in_step < s->frames;
		case OP_UNTIL:
			in->move.x = s->x;
			return s->until( g ) == false;
		case OP_JUMP:
			if ( first )
			{
				t->left_floor = false;
				in->jump = true;
			}
			if ( isnan( s->x ) == false )
			{
				in->move.x = toward( at.x, s->x, 0.1f );
			}
			// A door can end a jump in the top-down room, where there is no floor to land on.
			return ( first || t->left_floor == false || grounded == false ) && g->player.top_down == false;
		case OP_JUMP_PRESS:
			in->jump = first;
			return first;
		case OP_DROP:
			if ( first )
			{
				t->left_floor = false;
				in->jump = true;
				in->move.y = -1.0f;
			}
			return first || t->left_floor == false || grounded == false;
		case OP_RIDE:
		{
			const kcc_level_platform* p = kcc_level_find_platform( g->level, s->name );
			const cpShape* shape = p != NULL && p->object->shape_count > 0 ? p->object->shapes[0] : NULL;
			if ( standing_on( g, shape ) && fabsf( (float)cpBodyGetPosition( p->body ).x - at.x ) < 0.4f )
			{
				return false;
			}
			in->move.x = p != NULL ? toward( at.x, (float)cpBodyGetPosition( p->body ).x, 0.2f ) : 0.0f;
			return true;
		}
		case OP_NEAR:
		{
			vec2s c = enemy_center( g, s->name );
			if ( glms_vec2_distance( c, demo_player_center( g ) ) < s->x )
			{
				return false;
			}
			in->move.x = s->y != 0.0f ? toward( at.x, c.x, 0.1f ) : 0.0f;
			return true;
		}
		case OP_JUMP_ONTO:
		{
			const demo_enemy* e = demo_find_enemy( g, s->name );
			if ( first )
			{
				t->left_floor = false;
				in->jump = true;
			}
			in->move.x = e != NULL ? toward( at.x, e->position.x, 0.05f ) : 0.0f;
			return first || t->left_floor == false || grounded == false;
		}
		case OP_FAN:
		case OP_DASH:
			in->aim = enemy_center( g, s->name );
			in->fan = first && s->op == OP_FAN;
			in->dash = first && s->op == OP_DASH;
			return t->frames_in_step < s->frames;
		case OP_SLAM:
			in->aim = enemy_center( g, s->name );
			in->slam = first;
			return first || g->player.diving;
		case OP_GOTO:
		{
			vec2s d = glms_vec2_sub( kcc_v2( s->x, s->y ), at );
			float length = glms_vec2_norm( d );
			if ( length < 0.15f || g->player.top_down == false ) // a door can take it out of the room
			{
				return false;
			}
			in->move = glms_vec2_scale( d, 1.0f / length );
			return true;
		}
	}
	return false;
}

demo_input demo_tour_input( demo_tour* t, const demo_game* g )
{
	demo_input in;
	memset( &in, 0, sizeof( in ) );
	in.shape = -1;
	in.aim = demo_player_center( g );
	t->snapshot = NULL;
	while ( t->done == false )
	{
		if ( t->step >= TOUR_STEP_COUNT )
		{
			t->done = true;
			break;
		}
		const tour_step* s = s_script + t->step;
		demo_input attempt = in;
		if ( run_step( t, g, s, &attempt ) )
		{
			t->frames_in_step += 1;
			if ( t->frames_in_step > TOUR_STEP_LIMIT )
			{
				t->failed = true;
				t->done = true;
				vec2s at = demo_player_position( g );
				snprintf( t->failure, sizeof( t->failure ),
						  "step %d (op %d, %s) did not finish in %d frames, at (%.2f, %.2f)", t->step, (int)s->op,
						  s->name != NULL ? s->name : "-", TOUR_STEP_LIMIT, (double)at.x, (double)at.y );
				break;
			}
			in = attempt;
			break;
		}
		if ( t->trace )
		{
			vec2s p = demo_player_position( g );
			printf( "tour: step %3d (op %2d %-10s) done at frame %5d, at (%7.3f, %7.3f)\n", t->step, (int)s->op,
					s->name != NULL ? s->name : "", g->frame, (double)p.x, (double)p.y );
		}
		t->step += 1;
		t->frames_in_step = 0;
		if ( t->snapshot != NULL )
		{
			break; // the frame is saved before anything else happens
		}
	}
	if ( t->crouch && in.move.y == 0.0f )
	{
		in.move.y = -1.0f;
	}
	return in;
}

// ---------------------------------------------------------------------------------------------------------------
// The summary

bool demo_tour_summary( const demo_tour* t, const demo_game* g, double seconds )
{
	const demo_stats* s = &g->stats;
	printf( "kcc2d demo tour: %d frames (%.1f s of game time)", s->frames, (double)s->frames * DEMO_DT );
	printf( seconds > 0.0 ? " in %.2f s\n" : "\n", seconds );
	int visited = 0;
	printf( "features:\n" );
	for ( int f = 0; f < FEATURE_COUNT; ++f )
	{
		char detail[128];
		demo_feature_detail( g, (demo_feature)f, detail, sizeof( detail ) );
		printf( "  [%c] %-32s %s\n", s->visited[f] ? 'x' : ' ', demo_feature_name( (demo_feature)f ), detail );
		visited += s->visited[f] ? 1 : 0;
	}
	printf( "zone events: %d begins, %d ends\n", s->zone_begins, s->zone_ends );
	printf( "stuck frames: %d   crushed frames: %d   overlaps deeper than 0.001: %d frames (deepest %.6f)\n",
			s->stuck_frames, s->crushed_frames, s->overlap_frames, (double)s->worst_overlap );
	if ( t->snapshot_count > 0 )
	{
		printf( "frames written: %d\n", t->snapshot_count );
	}
	bool ok = t->failed == false && t->done && visited == FEATURE_COUNT && s->zone_begins > 0 && s->zone_ends > 0 &&
			  s->stuck_frames == 0 && s->crushed_frames == 0 && s->overlap_frames == 0;
	if ( ok )
	{
		printf( "tour: OK (%d of %d features, %d zone events, 0 stuck, 0 overlaps)\n", visited, FEATURE_COUNT,
				s->zone_begins + s->zone_ends );
	}
	else
	{
		printf( "tour: FAILED (%d of %d features)%s%s\n", visited, FEATURE_COUNT, t->failed ? ": " : "", t->failure );
	}
	return ok;
}
