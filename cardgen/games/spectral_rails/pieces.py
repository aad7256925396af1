def extra_outputs(content, game_dir, paper, flip):
    return []
