// SPDX-License-Identifier: MIT
// The user guide's pictures (docs/images/*.png): small scenes that each show one thing the controller does (the
// cast, the slide, a crease, the snap, a step, a platform ride, one-way, zones, pushing) and a picture of the demo.
#pragma once

/// Renders every picture into folder; 0 on success.
int demo_render_pictures( const char* map, const char* folder );
