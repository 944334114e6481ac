// SPDX-License-Identifier: MIT
// The chunk kernels of the batch queries (batch.c), included once per instruction set: before each inclusion,
// KCC_BATCH_NAME( name ) gives the functions' names and KCC_BATCH_TARGET their target attribute. Each tests one
// chunk of KCC_BATCH_CHUNK circles with a branch-free loop of fixed length that the compiler vectorises (the same
// inline tests as kcc_overlap, so the answers are identical) into a flag array.
// No include guard: included more than once on purpose.

KCC_BATCH_TARGET static void KCC_BATCH_NAME( kcc_batch_circle )( const kcc_shape* s, const vec2s* restrict centers,
														   const float* restrict radii, uint8_t* restrict flags )
{
	const kcc_circle shape = s->circle;
	for ( int i = 0; i < KCC_BATCH_CHUNK; ++i )
	{
		kcc_circle c = { centers[i], radii[i] };
		bool ok = kcc_batch_circle_ok( c.center.x, c.center.y, c.radius );
		flags[i] = (uint8_t)( ok & kcc_circle_overlaps_circle( shape, c ) );
	}
}

KCC_BATCH_TARGET static void KCC_BATCH_NAME( kcc_batch_aabb )( const kcc_shape* s, const vec2s* restrict centers,
														   const float* restrict radii, uint8_t* restrict flags )
{
	const kcc_aabb box = s->aabb;
	for ( int i = 0; i < KCC_BATCH_CHUNK; ++i )
	{
		kcc_circle c = { centers[i], radii[i] };
		bool ok = kcc_batch_circle_ok( c.center.x, c.center.y, c.radius );
		flags[i] = (uint8_t)( ok & kcc_circle_overlaps_aabb( c, box ) );
	}
}

KCC_BATCH_TARGET static void KCC_BATCH_NAME( kcc_batch_obb )( const kcc_shape* s, const vec2s* restrict centers,
														   const float* restrict radii, uint8_t* restrict flags )
{
	const kcc_obb box = s->obb;
	for ( int i = 0; i < KCC_BATCH_CHUNK; ++i )
	{
		kcc_circle c = { centers[i], radii[i] };
		bool ok = kcc_batch_circle_ok( c.center.x, c.center.y, c.radius );
		flags[i] = (uint8_t)( ok & kcc_circle_overlaps_obb( c, box ) );
	}
}

KCC_BATCH_TARGET static void KCC_BATCH_NAME( kcc_batch_sector )( const kcc_shape* s, const vec2s* restrict centers,
														   const float* restrict radii, uint8_t* restrict flags )
{
	const kcc_sector sector = s->sector;
	for ( int i = 0; i < KCC_BATCH_CHUNK; ++i )
	{
		kcc_circle c = { centers[i], radii[i] };
		bool ok = kcc_batch_circle_ok( c.center.x, c.center.y, c.radius );
		flags[i] = (uint8_t)( ok & kcc_circle_overlaps_sector( c, &sector ) );
	}
}

KCC_BATCH_TARGET static void KCC_BATCH_NAME( kcc_batch_capsule )( const kcc_shape* s, const vec2s* restrict centers,
														   const float* restrict radii, uint8_t* restrict flags )
{
	const kcc_capsule cap = s->capsule;
	for ( int i = 0; i < KCC_BATCH_CHUNK; ++i )
	{
		kcc_circle c = { centers[i], radii[i] };
		bool ok = kcc_batch_circle_ok( c.center.x, c.center.y, c.radius );
		flags[i] = (uint8_t)( ok & kcc_circle_overlaps_capsule( c, cap ) );
	}
}

// Polygon: a vectorised pass computes the greatest edge separation exactly as kcc_circle_overlaps_polygon does;
// circles beyond it by more than a bound on that test's rounding margin are out there too (the distance to the
// closest feature is at least the separation), and the few others (in an area query) run the full test, so the
// answers are identical.
KCC_BATCH_TARGET static void KCC_BATCH_NAME( kcc_batch_polygon )( const kcc_shape* s, const vec2s* restrict centers,
														   const float* restrict radii, uint8_t* restrict flags )
{
	const kcc_polygon* p = &s->polygon;
	float best[KCC_BATCH_CHUNK];
	for ( int i = 0; i < KCC_BATCH_CHUNK; ++i )
	{
		best[i] = -FLT_MAX;
	}
	// The full test is exact and reads only the vertices; this pass uses the stored normals, which a valid polygon
	// has unit within 1e-3 in squared length (|n| within 5.0e-4 of 1) and perpendicular to the edge within 1e-3
	// (kcc_shape_is_valid). So n . (p - v) is within 1.51e-3 |p - v| of the exact separation, plus a few ulps of
	// rounding: a circle is dropped only when its separation exceeds rr by more than 2e-3 |p - v|_1, which by the
	// triangle inequality is at most 2e-3 * (|p - c|_1 + max_v |v - c|_1); 1% more covers the rounding of the bound.
	vec2s c = p->centroid;
	float extent = 0.0f;
	for ( int k = 0; k < p->count; ++k )
	{
		extent = fmaxf( extent, fabsf( p->vertices[k].x - c.x ) + fabsf( p->vertices[k].y - c.y ) );
	}
	for ( int k = 0; k < p->count; ++k )
	{
		vec2s n = p->normals[k], v = p->vertices[k];
		for ( int i = 0; i < KCC_BATCH_CHUNK; ++i )
		{
			float sep = n.x * ( centers[i].x - v.x ) + n.y * ( centers[i].y - v.y );
			best[i] = sep > best[i] ? sep : best[i];
		}
	}
	float polygon_radius = p->radius;
	for ( int i = 0; i < KCC_BATCH_CHUNK; ++i )
	{
		float px = centers[i].x, py = centers[i].y;
		float bound = 2.02e-3f * ( fabsf( px - c.x ) + fabsf( py - c.y ) + extent ) + 1.0e-30f;
		float rr = radii[i] + polygon_radius;
		bool ok = kcc_batch_circle_ok( px, py, radii[i] );
		flags[i] = (uint8_t)( ok & ( best[i] <= rr + bound ) );
	}
	for ( int i = 0; i < KCC_BATCH_CHUNK; ++i )
	{
		if ( flags[i] )
		{
			kcc_circle circle = { centers[i], radii[i] };
			flags[i] = (uint8_t)kcc_circle_overlaps_polygon( circle, p );
		}
	}
}
