def draw_face(canvas, content, card, rect, bleed):
    pass


def draw_back(canvas, content, back_id, rect, bleed):
    pass
