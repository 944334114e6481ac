// SPDX-License-Identifier: MIT
// The controller's side of the cpSpace, through Chipmunk's public API: its own body and shape, the one bounding box
// query per move, the bodies it rides, and keeping its shape indexed where it is. Shape conversion is in
// chipmunk_shapes.c. Every float <-> double conversion goes through chipmunk_bridge.h.
#include "chipmunk_bridge.h"
#include "internal.h"

bool kcc_world_create( kcc_controller* c )
{
	cpBody* body = cpBodyNewKinematic();
	if ( body == NULL )
	{
		return false;
	}
	cpBodySetPosition( body, kcc_bridge_to_cpv( c->position ) );

	const kcc_shape* s = &c->local_shape;
	cpShape* shape = NULL;
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
			shape = cpCircleShapeNew( body, kcc_bridge_to_double( s->circle.radius ),
									  kcc_bridge_to_cpv( s->circle.center ) );
			break;
		case KCC_SHAPE_CAPSULE:
			shape = cpSegmentShapeNew( body, kcc_bridge_to_cpv( s->capsule.a ), kcc_bridge_to_cpv( s->capsule.b ),
									   kcc_bridge_to_double( s->capsule.radius ) );
			break;
		case KCC_SHAPE_POLYGON:
		{
			cpVect verts[KCC_MAX_POLYGON_VERTICES];
			for ( int i = 0; i < s->polygon.count; ++i )
			{
				verts[i] = kcc_bridge_to_cpv( s->polygon.vertices[i] );
			}
			// Our polygon is already a counter-clockwise convex hull: no second hull.
			shape = cpPolyShapeNewRaw( body, s->polygon.count, verts, kcc_bridge_to_double( s->polygon.radius ) );
			break;
		}
		default:
			break;
	}
	if ( shape == NULL )
	{
		cpBodyFree( body );
		return false;
	}
	cpShapeSetFilter( shape, c->query_filter );
	cpShapeSetUserData( shape, c );
	cpSpaceAddBody( c->space, body );
	cpSpaceAddShape( c->space, shape );
	c->body = body;
	c->shape = shape;
	return true;
}

void kcc_world_destroy( kcc_controller* c )
{
	if ( c->shape != NULL )
	{
		if ( cpSpaceContainsShape( c->space, c->shape ) )
		{
			cpSpaceRemoveShape( c->space, c->shape );
		}
		cpShapeFree( c->shape );
		c->shape = NULL;
	}
	if ( c->body != NULL )
	{
		if ( cpSpaceContainsBody( c->space, c->body ) )
		{
			cpSpaceRemoveBody( c->space, c->body );
		}
		cpBodyFree( c->body );
		c->body = NULL;
	}
}

static void kcc_gather_callback( cpShape* shape, void* data )
{
	kcc_controller* c = data;
	if ( shape == c->shape )
	{
		return;
	}
	if ( c->candidate_count >= c->candidate_capacity )
	{
		c->candidate_overflow = true;
		return;
	}
	cpBB bb = cpShapeGetBB( shape );
	kcc_candidate* cand = c->candidates + c->candidate_count++;
	cand->bb = bb;
	cand->bounds.min = kcc_bridge_relative( cpv( bb.l, bb.b ), c->origin );
	cand->bounds.max = kcc_bridge_relative( cpv( bb.r, bb.t ), c->origin );
	cand->shape = shape;
	cand->order = c->candidate_count - 1;
	cand->piece = 0;
	cand->sensor = cpShapeGetSensor( shape ) != cpFalse;
	cand->blocks = cand->sensor == false;
	cand->converted = false;
}

void kcc_world_gather( kcc_controller* c, kcc_aabb region )
{
	c->candidate_count = 0;
	c->candidate_overflow = false;
	cpVect lo = kcc_bridge_world( c->origin, region.min );
	cpVect hi = kcc_bridge_world( c->origin, region.max );
	cpSpaceBBQuery( c->space, cpBBNew( lo.x, lo.y, hi.x, hi.y ), c->query_filter, kcc_gather_callback, c );
	if ( c->drop_shape != NULL )
	{
		// Dropping through a one-way shape: it does not block (rare: a separate loop keeps the callback short).
		for ( int i = 0; i < c->candidate_count; ++i )
		{
			if ( c->candidates[i].shape == c->drop_shape )
			{
				c->candidates[i].blocks = false;
			}
		}
	}
}

const cpBody* kcc_world_shape_body( const cpShape* shape )
{
	return cpShapeGetBody( shape );
}

const cpBody* kcc_world_kinematic_body( const cpShape* shape )
{
	cpBody* body = cpShapeGetBody( shape );
	return body != NULL && cpBodyGetType( body ) == CP_BODY_TYPE_KINEMATIC ? body : NULL;
}

typedef struct kcc_body_search
{
	const cpBody* wanted;
	const cpBody* found;
} kcc_body_search;

static void kcc_find_body_callback( cpBody* body, void* data )
{
	kcc_body_search* search = data;
	if ( body == search->wanted )
	{
		search->found = body;
	}
}

const cpBody* kcc_world_find_body( const kcc_controller* c, const cpBody* body )
{
	kcc_body_search search = { body, NULL };
	cpSpaceEachBody( c->space, kcc_find_body_callback, &search );
	return search.found;
}

void kcc_world_body_pose( const cpBody* body, cpVect* position, double* angle )
{
	// The centre of gravity: what Chipmunk rotates a body about.
	*position = cpBodyLocalToWorld( body, cpBodyGetCenterOfGravity( body ) );
	*angle = cpBodyGetAngle( body );
}

void kcc_world_sync_body( kcc_controller* c )
{
	// A character that did not move keeps its place in the index.
	if ( c->indexed && c->indexed_position.x == c->position.x && c->indexed_position.y == c->position.y )
	{
		return;
	}
	cpBodySetPosition( c->body, kcc_bridge_to_cpv( c->position ) );
	cpSpaceReindexShape( c->space, c->shape );
	c->indexed_position = c->position;
	c->indexed = true;
}
