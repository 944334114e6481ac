// SPDX-License-Identifier: MIT
// The frame's labels: queued while the world is drawn, then placed by one rule and drawn on top. A label stays
// whole inside the viewport, off the player and off what it names, and avoids the other labels and what the frame
// shows (characters, attacks, the overlay's arrows); among the places that do, the nearest to where it was asked
// for wins.
#include "render.h"

#include <stdio.h>
#include <string.h>

#define LABEL_MARGIN 2.0f // pixels kept free around a label

static SDL_FRect inflate( SDL_FRect r, float by )
{
	SDL_FRect out = { r.x - by, r.y - by, r.w + 2.0f * by, r.h + 2.0f * by };
	return out;
}

static float overlap_area( SDL_FRect a, SDL_FRect b )
{
	if ( a.w <= 0.0f || b.w <= 0.0f )
	{
		return 0.0f;
	}
	float w = fminf( a.x + a.w, b.x + b.w ) - fmaxf( a.x, b.x );
	float h = fminf( a.y + a.h, b.y + b.h ) - fmaxf( a.y, b.y );
	return w > 0.0f && h > 0.0f ? w * h : 0.0f;
}

void demo_labels_add( demo_view* v, SDL_FPoint at, const char* text, kcc_color color, bool sign )
{
	int w = 0, h = 0;
	demo_view_text_size( v, 1, text, &w, &h );
	if ( w == 0 )
	{
		return;
	}
	SDL_FRect line = { at.x, at.y, (float)w, (float)h };
	demo_label* last = v->label_count > 0 ? v->labels + v->label_count - 1 : NULL;
	// kcc_debug_draw_move stacks its flag labels one above the other: they stay one block.
	bool joins = last != NULL && sign == false && last->sign == false && last->owner == v->label_owner &&
				 last->line_count < DEMO_LABEL_LINES && fabsf( last->rect.x - at.x ) < 1.0f &&
				 at.y + line.h >= last->rect.y - 3.0f && at.y <= last->rect.y + last->rect.h + 3.0f;
	demo_label* l = last;
	if ( joins == false )
	{
		if ( v->label_count == DEMO_MAX_LABELS )
		{
			return;
		}
		l = v->labels + v->label_count++;
		memset( l, 0, sizeof( *l ) );
		l->rect = line;
		l->subject = v->label_subject;
		l->owner = v->label_owner;
		l->priority = v->label_priority;
		l->sign = sign;
	}
	snprintf( l->text[l->line_count], sizeof( l->text[0] ), "%s", text );
	l->color[l->line_count] = color;
	l->line_at[l->line_count] = at;
	l->line_count += 1;
	float x0 = fminf( l->rect.x, line.x ), y0 = fminf( l->rect.y, line.y );
	float x1 = fmaxf( l->rect.x + l->rect.w, line.x + line.w ), y1 = fmaxf( l->rect.y + l->rect.h, line.y + line.h );
	l->rect = ( SDL_FRect ){ x0, y0, x1 - x0, y1 - y0 };
}

// What a label costs at a place: covering the player or its subject is worst, then other labels, then obstacles;
// then the distance from where it was asked for and the gap to its subject.
static float label_cost( const demo_view* v, const demo_label* l, SDL_FRect at, const SDL_FRect* placed,
						 int placed_count )
{
	SDL_FRect r = inflate( at, LABEL_MARGIN );
	float cost = 100.0f * overlap_area( r, v->player_box ) + 100.0f * overlap_area( r, l->subject );
	for ( int i = 0; i < placed_count; ++i )
	{
		cost += 40.0f * overlap_area( r, placed[i] );
	}
	for ( int i = 0; i < v->obstacle_count; ++i )
	{
		cost += 4.0f * overlap_area( r, v->obstacles[i] );
	}
	float dx = at.x - l->rect.x, dy = at.y - l->rect.y;
	cost += sqrtf( dx * dx + dy * dy );
	if ( l->subject.w > 0.0f )
	{
		// Beside what it names: something else must not come between them.
		float gx = fmaxf( 0.0f, fmaxf( l->subject.x - ( at.x + at.w ), at.x - ( l->subject.x + l->subject.w ) ) );
		float gy = fmaxf( 0.0f, fmaxf( l->subject.y - ( at.y + at.h ), at.y - ( l->subject.y + l->subject.h ) ) );
		cost += 2.0f * sqrtf( gx * gx + gy * gy );
	}
	return cost;
}

// Inside the viewport (a label wider than it starts at its left edge).
static SDL_FRect clamp_into( const SDL_Rect* vp, SDL_FRect r )
{
	float x0 = (float)vp->x + LABEL_MARGIN, y0 = (float)vp->y + LABEL_MARGIN;
	float x1 = (float)( vp->x + vp->w ) - LABEL_MARGIN - r.w, y1 = (float)( vp->y + vp->h ) - LABEL_MARGIN - r.h;
	r.x = r.x > x1 ? x1 : r.x;
	r.x = r.x < x0 ? x0 : r.x;
	r.y = r.y > y1 ? y1 : r.y;
	r.y = r.y < y0 ? y0 : r.y;
	return r;
}

static SDL_FRect place_label( const demo_view* v, const demo_label* l, const SDL_FRect* placed, int placed_count )
{
	float w = l->rect.w, h = l->rect.h, gap = 4.0f, step = 16.0f;
	SDL_FRect s = l->subject;
	// Places to try: where it was asked for (and from there up, down and sideways), then around its subject (above,
	// beside, below), each also moved farther out in steps.
	SDL_FPoint bases[9];
	SDL_FPoint away[9];
	int n = 0;
	bases[n] = ( SDL_FPoint ){ l->rect.x, l->rect.y };
	away[n++] = ( SDL_FPoint ){ 0.0f, -1.0f };
	bases[n] = ( SDL_FPoint ){ l->rect.x, l->rect.y };
	away[n++] = ( SDL_FPoint ){ 0.0f, 1.0f };
	if ( s.w > 0.0f )
	{
		float cx = s.x + 0.5f * s.w - 0.5f * w, cy = s.y + 0.5f * s.h - 0.5f * h;
		bases[n] = ( SDL_FPoint ){ s.x, s.y - h - gap };
		away[n++] = ( SDL_FPoint ){ 0.0f, -1.0f };
		bases[n] = ( SDL_FPoint ){ cx, s.y - h - gap };
		away[n++] = ( SDL_FPoint ){ 0.0f, -1.0f };
		bases[n] = ( SDL_FPoint ){ s.x + s.w - w, s.y - h - gap };
		away[n++] = ( SDL_FPoint ){ 0.0f, -1.0f };
		bases[n] = ( SDL_FPoint ){ s.x + s.w + gap, cy };
		away[n++] = ( SDL_FPoint ){ 1.0f, 0.0f };
		bases[n] = ( SDL_FPoint ){ s.x - w - gap, cy };
		away[n++] = ( SDL_FPoint ){ -1.0f, 0.0f };
		bases[n] = ( SDL_FPoint ){ s.x, s.y + s.h + gap };
		away[n++] = ( SDL_FPoint ){ 0.0f, 1.0f };
		bases[n] = ( SDL_FPoint ){ cx, s.y + s.h + gap };
		away[n++] = ( SDL_FPoint ){ 0.0f, 1.0f };
	}
	SDL_FRect best = clamp_into( &v->viewport, l->rect );
	float best_cost = label_cost( v, l, best, placed, placed_count );
	for ( int i = 0; i < n; ++i )
	{
		for ( int k = 0; k < 8; ++k )
		{
			// Sideways too around the place it was asked for: a sign beside the player moves along.
			for ( int side = -2; side <= 2; ++side )
			{
				if ( side != 0 && i > 1 )
				{
					continue;
				}
				SDL_FRect r = { bases[i].x + away[i].x * step * (float)k + 0.5f * w * (float)side,
								bases[i].y + away[i].y * step * (float)k, w, h };
				r = clamp_into( &v->viewport, r );
				float cost = label_cost( v, l, r, placed, placed_count );
				if ( cost < best_cost )
				{
					best = r;
					best_cost = cost;
				}
			}
		}
	}
	return best;
}

// A level's sign names the place it stands at: one cut by the viewport's edge is left out (moved in whole, it would
// name what is beside it), unless only a little of it is cut.
static bool sign_visible( const SDL_Rect* vp, SDL_FRect r )
{
	float w = fminf( r.x + r.w, (float)( vp->x + vp->w ) ) - fmaxf( r.x, (float)vp->x );
	float h = fminf( r.y + r.h, (float)( vp->y + vp->h ) ) - fmaxf( r.y, (float)vp->y );
	return w >= 0.85f * r.w && h >= 0.85f * r.h;
}

void demo_labels_flush( demo_view* v )
{
	SDL_FRect placed[DEMO_MAX_LABELS];
	int placed_count = 0;
	bool done[DEMO_MAX_LABELS] = { false };
	for ( int round = 0; round < v->label_count; ++round )
	{
		// The next label: the lowest priority, first queued.
		int next = -1;
		for ( int i = 0; i < v->label_count; ++i )
		{
			if ( done[i] == false && ( next < 0 || v->labels[i].priority < v->labels[next].priority ) )
			{
				next = i;
			}
		}
		done[next] = true;
		const demo_label* l = v->labels + next;
		if ( l->sign && sign_visible( &v->viewport, l->rect ) == false )
		{
			continue;
		}
		SDL_FRect at = place_label( v, l, placed, placed_count );
		bool on_label = false;
		for ( int i = 0; i < placed_count; ++i )
		{
			on_label = on_label || overlap_area( at, placed[i] ) > 0.0f;
		}
		v->labels_on_labels += on_label;
		placed[placed_count++] = at;
		const SDL_Rect* vp = &v->viewport;
		v->labels_placed += 1;
		v->labels_cut += at.x < (float)vp->x || at.y < (float)vp->y || at.x + at.w > (float)( vp->x + vp->w ) ||
						 at.y + at.h > (float)( vp->y + vp->h );
		v->labels_on_player += overlap_area( at, v->player_box ) > 0.0f;
		v->labels_on_subject += overlap_area( at, l->subject ) > 0.0f;
		bool on_character = false;
		for ( int i = 0; i < v->character_obstacles; ++i )
		{
			on_character = on_character || overlap_area( at, v->obstacles[i] ) > 0.0f;
		}
		v->labels_on_characters += on_character;
		float dx = at.x - l->rect.x, dy = at.y - l->rect.y;
		for ( int k = 0; k < l->line_count; ++k )
		{
			demo_view_text( v, 1, l->line_at[k].x + dx, l->line_at[k].y + dy, l->text[k], l->color[k] );
		}
	}
	v->label_count = 0;
	v->obstacle_count = 0;
	v->character_obstacles = 0;
}
