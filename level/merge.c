// SPDX-License-Identifier: MIT
// Merging full tiles into boxes: fewer shapes for the broad phase and no seams inside a box. Greedy and
// deterministic: each row's maximal runs of equal cells, each run extended down while the next row holds exactly
// the same run (the same ends), so a wide floor under a narrow column is not cut into pieces by the column.
#include "internal.h"

static bool kcc_is_exact_run( const uint8_t* row, int w, int x0, int x1, uint8_t kind )
{
	for ( int x = x0; x < x1; ++x )
	{
		if ( row[x] != kind )
		{
			return false;
		}
	}
	bool left_ends = x0 == 0 || row[x0 - 1] != kind;
	bool right_ends = x1 == w || row[x1] != kind;
	return left_ends && right_ends;
}

bool kcc_merge_cells( uint8_t* cells, int w, int h, uint32_t vertical_kinds, kcc_list* rects )
{
	for ( int y = 0; y < h; ++y )
	{
		uint8_t* row = cells + (size_t)y * (size_t)w;
		int x = 0;
		while ( x < w )
		{
			uint8_t kind = row[x];
			if ( kind == 0 )
			{
				x += 1;
				continue;
			}
			int x0 = x;
			while ( x < w && row[x] == kind )
			{
				x += 1;
			}
			int y1 = y + 1;
			if ( kind < 32 && ( vertical_kinds & ( 1u << kind ) ) != 0 )
			{
				while ( y1 < h && kcc_is_exact_run( cells + (size_t)y1 * (size_t)w, w, x0, x, kind ) )
				{
					y1 += 1;
				}
			}
			for ( int yy = y; yy < y1; ++yy )
			{
				for ( int xx = x0; xx < x; ++xx )
				{
					cells[(size_t)yy * (size_t)w + (size_t)xx] = 0;
				}
			}
			kcc_cell_rect* r = kcc_list_push( rects, sizeof( kcc_cell_rect ), 1 );
			if ( r == NULL )
			{
				return false;
			}
			*r = ( kcc_cell_rect ){ x0, y, x - x0, y1 - y, kind };
		}
	}
	return true;
}
